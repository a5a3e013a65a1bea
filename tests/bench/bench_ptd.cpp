// PTD speed: ids + PTD for t4000,v16x32x32,t4000 (131 M distances) under mrope and circle, on one
// and two threads, plus the inner loop alone and prototype kernels; the 1M-token cases (A) and
// (B) and a scaling series from 1k to 4M tokens (ptd/scale/); --check prints checksums.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "bench_common.h"
#include "large_layouts.h"
#include "ptd_prototype.h"
#include "ropescope/metrics.h"

namespace rb = ropescope::bench;
using ropescope::PositionIds;

namespace {

const char* const kDesigns[] = {"mrope", "circle"};

double distances(const PositionIds& ids) {
  std::size_t text = 0;
  for (const auto& t : ids.tokens) text += t.modality == ropescope::Modality::Text;
  return static_cast<double>(text) * static_cast<double>(ids.size() - text);
}

void setRate(benchmark::State& state, double perIter) {
  state.counters["ns_per_distance"] =
      benchmark::Counter(perIter * static_cast<double>(state.iterations()) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ids from the layout spec inside the timed region, as the numpy peer does.
void idsAndPtd(benchmark::State& state, std::string design, int threads) {
  double perIter = 0;
  for (auto _ : state) {
    const PositionIds ids = rb::designIds(design, rb::kPtdLayout);
    const ropescope::PtdResult r = ropescope::perTokenDistance(ids, threads);
    benchmark::DoNotOptimize(r.ptd);
    perIter = distances(ids);
  }
  setRate(state, perIter);
}

// The inner loop alone: ids prepared outside the timed region.
void ptdOnly(benchmark::State& state, std::string design, int threads) {
  const PositionIds ids = rb::designIds(design, rb::kPtdLayout);
  for (auto _ : state) {
    const ropescope::PtdResult r = ropescope::perTokenDistance(ids, threads);
    benchmark::DoNotOptimize(r.ptd);
  }
  setRate(state, distances(ids));
}

void idsOnly(benchmark::State& state, std::string design) {
  for (auto _ : state) {
    const PositionIds ids = rb::designIds(design, rb::kPtdLayout);
    benchmark::DoNotOptimize(ids.ids.data());
  }
}

template <rb::SqrtKind K, bool Dedupe>
void idsAndPrototype(benchmark::State& state, std::string design, int threads) {
  double perIter = 0;
  for (auto _ : state) {
    const PositionIds ids = rb::designIds(design, rb::kPtdLayout);
    const rb::PrototypeResult r = rb::prototypePtd<K, Dedupe>(ids, threads);
    benchmark::DoNotOptimize(r.ptd);
    perIter = distances(ids);
  }
  setRate(state, perIter);
}

// The scale cases: (A) a long video, (B) an interleaved document, and interleaved documents of
// 1 to 2048 pictures (32 x 32, 1000 text tokens around each) from 1k to 4M tokens.
std::vector<std::pair<std::string, std::string>> scaleCases() {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"A-long-video", rb::kLongVideoLayout}, {"B-interleaved", rb::interleavedDocument()}};
  cases.emplace_back("1k", "t256,i16x32,t256");
  for (int pictures : {1, 4, 16, 64, 256, 1024, 2048}) {
    const std::string spec = rb::interleavedSpec(pictures, 32, 1000);
    const PositionIds ids = rb::mropeIdsUnlimited(spec);
    const double k = static_cast<double>(ids.size()) / 1000.0;
    char name[32];
    std::snprintf(name, sizeof name, k < 1000 ? "%.0fk" : "%.2gM", k < 1000 ? k : k / 1000.0);
    cases.emplace_back(name, spec);
  }
  return cases;
}

// Whole computation as a user sees it: ids built, then PTD.
void scaleIdsAndPtd(benchmark::State& state, std::string spec, int threads) {
  double perIter = 0;
  for (auto _ : state) {
    const PositionIds ids = rb::mropeIdsUnlimited(spec);
    const ropescope::PtdResult r = ropescope::perTokenDistance(ids, threads);
    benchmark::DoNotOptimize(r.ptd);
    perIter = distances(ids);
  }
  setRate(state, perIter);
}

void registerAll() {
  for (const auto& [name, spec] : scaleCases())
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("ptd/scale/" + name + "/threads:" + std::to_string(threads)).c_str(), scaleIdsAndPtd,
          spec, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  for (const char* design : kDesigns) {
    const std::string d = design;
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("ptd/ids+ptd/" + d + "/threads:" + std::to_string(threads)).c_str(), idsAndPtd, d,
          threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("ptd/ptd-only/" + d + "/threads:" + std::to_string(threads)).c_str(), ptdOnly, d,
          threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    benchmark::RegisterBenchmark(("ptd/ids-only/" + d).c_str(), idsOnly, d)
        ->Unit(benchmark::kMillisecond);
    const std::pair<const char*, void (*)(benchmark::State&, std::string, int)> kernels[] = {
        {"exact", idsAndPrototype<rb::SqrtKind::Exact, false>},
        {"rsqrt", idsAndPrototype<rb::SqrtKind::Rsqrt, false>},
        {"exact-dedupe", idsAndPrototype<rb::SqrtKind::Exact, true>},
        {"rsqrt-dedupe", idsAndPrototype<rb::SqrtKind::Rsqrt, true>}};
    for (const auto& [kernel, fn] : kernels)
      for (int threads : {1, 2})
        benchmark::RegisterBenchmark(("ptd/ids+prototype-" + std::string(kernel) + "/" + d +
                                      "/threads:" + std::to_string(threads))
                                         .c_str(),
                                     fn, d, threads)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
  }
}

double maxRelDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    m = std::max(m, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), 1e-300));
  return m;
}

// The text tokens whose rows the numpy peer computes for a scale case: kSampledRows evenly
// spaced, i * nText / kSampledRows (ptd_peer.py --sample uses the same indices).
constexpr std::size_t kSampledRows = 64;

// The definition for one text token, compensated: its mean distance and mean absolute deviation.
std::pair<double, double> directRow(const PositionIds& ids, std::size_t t,
                                    const std::vector<std::size_t>& vis) {
  std::vector<double> d(vis.size());
  double sum = 0.0, comp = 0.0;
  for (std::size_t i = 0; i < vis.size(); ++i) {
    d[i] = ropescope::tokenDistance(ids, t, vis[i]);
    const double s = sum + d[i];
    comp += std::abs(sum) >= std::abs(d[i]) ? (sum - s) + d[i] : (d[i] - s) + sum;
    sum = s;
  }
  const double mean = (sum + comp) / static_cast<double>(vis.size());
  double dev = 0.0;
  for (double x : d) dev += std::abs(x - mean);
  return {mean, dev / static_cast<double>(vis.size())};
}

// One JSON line per scale case: PTD, the sampled rows' sums (for the peer) and the largest
// relative difference of those rows from the definition evaluated here.
void checkScale() {
  // The builder against core's mrope design, on a layout the parser accepts.
  const std::string small = "t7,v3x5x4,t9,i6x2,t3";
  rb::JsonLine()
      .add("case", std::string("ptd/scale/ids-builder"))
      .add("matches_core_mrope",
           static_cast<long>(rb::mropeIdsUnlimited(small).ids == rb::designIds("mrope", small).ids))
      .print();
  for (const auto& [name, spec] : scaleCases()) {
    const PositionIds ids = rb::mropeIdsUnlimited(spec);
    const ropescope::PtdResult r = ropescope::perTokenDistance(ids, 2);
    const std::vector<std::size_t> text = ids.textIndices(), vis = ids.visualIndices();
    double sumPer = 0.0, sumMean = 0.0, maxRel = 0.0;
    for (std::size_t i = 0; i < kSampledRows; ++i) {
      const std::size_t t = i * text.size() / kSampledRows;
      sumPer += r.perText[t];
      sumMean += r.meanDistance[t];
      const auto [mean, dev] = directRow(ids, text[t], vis);
      maxRel = std::max(
          {maxRel, std::abs(r.meanDistance[t] - mean) / mean, std::abs(r.perText[t] - dev) / dev});
    }
    rb::JsonLine()
        .add("case", "ptd/scale/" + name)
        .add("layout", spec.size() > 60 ? spec.substr(0, 40) + "..." : spec)
        .add("layout_full", spec)
        .add("tokens", static_cast<long>(ids.size()))
        .add("n_text", static_cast<long>(r.nText))
        .add("n_visual", static_cast<long>(r.nVisual))
        .add("ptd", r.ptd)
        .add("sampled_rows", static_cast<long>(kSampledRows))
        .add("sum_per_text_sampled", sumPer)
        .add("sum_mean_distance_sampled", sumMean)
        .add("sampled_direct_maxrel", maxRel)
        .print();
  }
}

// One JSON line per design: core's result, its 2-thread result and the prototypes'.
int check(const std::string& idsDir) {
  for (const char* design : kDesigns) {
    const PositionIds ids = rb::designIds(design, rb::kPtdLayout);
    const ropescope::PtdResult r1 = ropescope::perTokenDistance(ids, 1);
    const ropescope::PtdResult r2 = ropescope::perTokenDistance(ids, 2);
    const rb::PrototypeResult pe = rb::prototypePtd<rb::SqrtKind::Exact>(ids, 1);
    const rb::PrototypeResult pr = rb::prototypePtd<rb::SqrtKind::Rsqrt>(ids, 2);
    const rb::PrototypeResult pde = rb::prototypePtd<rb::SqrtKind::Exact, true>(ids, 1);
    const rb::PrototypeResult pdr = rb::prototypePtd<rb::SqrtKind::Rsqrt, true>(ids, 2);
    std::string params = "{";
    for (const auto& spec : ropescope::findDesign(design).parameters()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", spec.defaultValue);
      params += (params.size() > 1 ? ", \"" : "\"") + spec.key + "\": " + buf;
    }
    params += "}";
    rb::JsonLine()
        .add("case", std::string("ptd/") + design)
        .add("layout", std::string(rb::kPtdLayout))
        .add("n_text", static_cast<long>(r1.nText))
        .add("n_visual", static_cast<long>(r1.nVisual))
        .add("ptd", r1.ptd)
        .add("sum_per_text", rb::sum(r1.perText))
        .add("sum_mean_distance", rb::sum(r1.meanDistance))
        .add("ptd_threads2", r2.ptd)
        .add("sum_mean_distance_threads2", rb::sum(r2.meanDistance))
        .add("prototype_exact_ptd", pe.ptd)
        .add("prototype_exact_mean_maxrel", maxRelDiff(pe.meanDistance, r1.meanDistance))
        .add("prototype_exact_per_text_sum", rb::sum(pe.perText))
        .add("prototype_rsqrt_ptd", pr.ptd)
        .add("prototype_rsqrt_mean_maxrel", maxRelDiff(pr.meanDistance, r1.meanDistance))
        .add("prototype_rsqrt_per_text_sum", rb::sum(pr.perText))
        .add("prototype_exact-dedupe_ptd", pde.ptd)
        .add("prototype_exact-dedupe_mean_maxrel", maxRelDiff(pde.meanDistance, r1.meanDistance))
        .add("prototype_rsqrt-dedupe_ptd", pdr.ptd)
        .add("prototype_rsqrt-dedupe_mean_maxrel", maxRelDiff(pdr.meanDistance, r1.meanDistance))
        .add("distinct_visual", static_cast<long>(rb::prepareVisual(ids, true).w.size()))
        .raw("params", params)
        .print();
    if (!idsDir.empty()) rb::writeIdsNpy(idsDir + "/ids_ptd_" + design + ".npy", ids);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (rb::hasFlag(argc, argv, "check")) return check(rb::flagValue(argc, argv, "ids-dir"));
  if (rb::hasFlag(argc, argv, "check-scale")) {
    checkScale();
    return 0;
  }
  registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
