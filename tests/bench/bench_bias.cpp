// Bias-spread speed: ids + pair table + bias spread for t1024,i32x64,t1024 (2048 x 2048 tokens,
// 64 pairs) under mrope and circle with the M-RoPE [16,24,24] plan, base 1e6; --check checksums.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "../../core/src/kernels/bias_absdev.h"
#include "../../core/src/kernels/bias_gemm.h"
#include "bench_common.h"
#include "bias_prototype.h"
#include "large_layouts.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"

namespace rb = ropescope::bench;

namespace {

const char* const kDesigns[] = {"mrope", "circle"};

ropescope::FrequencySpec biasSpec() {
  return ropescope::FrequencySpec{"mrope", {128, 0, 1e6}};
}

void bias(benchmark::State& state, std::string design, int threads) {
  for (auto _ : state) {
    const ropescope::PositionIds ids = rb::designIds(design, rb::kLiveLayout);
    const ropescope::PairTable pairs = ropescope::resolvePairs(biasSpec());
    const ropescope::BiasResult r = ropescope::biasSpread(ids, pairs, threads);
    benchmark::DoNotOptimize(r.spread);
  }
}

// Integer ids only (the M-RoPE case): the prototype refuses fractional ids.
void prototype(benchmark::State& state, std::string design, int threads) {
  for (auto _ : state) {
    const ropescope::PositionIds ids = rb::designIds(design, rb::kLiveLayout);
    const ropescope::PairTable pairs = ropescope::resolvePairs(biasSpec());
    const rb::BiasPrototypeResult r = rb::prototypeBiasSpread(ids, pairs, threads);
    if (!r.handled) state.SkipWithError("prototype handles integer ids only");
    benchmark::DoNotOptimize(r.spread);
  }
}

// The product alone, at the live layout's shape: visual 2048 x 2n 128 times 2n x 2048 text tokens,
// kBiasGemmChunk text tokens per call, as the fused bias spread calls it: with AVX-512 the kernel
// that also sums the absolute deviations (bias_absdev.h), else Eigen's product (bias_gemm.h).
// GFLOP/s (CPU time) to set against OpenBLAS's dgemm (peers/dgemm_peer.py), this CPU's roofline.
void gemmKernel(benchmark::State& state) {
  namespace rd = ropescope::detail;
  const std::ptrdiff_t visual = 2048, inner = 128, text = 2048, chunk = rd::kBiasGemmChunk;
  std::vector<double> a(visual * inner), x(inner * chunk), out(visual * chunk), shift(chunk, 0.01);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::cos(0.001 * static_cast<double>(i));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.003 * static_cast<double>(i));
  const char* isa = nullptr;
  const rd::BiasGemmFn gemm = rd::biasGemm(&isa);
  const rd::BiasAbsDevFn absDev = rd::biasAbsDev();
  const std::vector<double> panels = rd::packBiasPanels(a.data(), visual, inner);
  for (auto _ : state) {
    for (std::ptrdiff_t t = 0; t < text; t += chunk) {
      if (absDev)
        absDev(panels.data(), visual, inner, x.data(), chunk, shift.data(), out.data());
      else
        gemm(a.data(), x.data(), visual, inner, chunk, out.data());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(visual * inner * text) * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(absDev ? "avx512 fused abs-deviation" : std::string(isa) + " eigen");
}

int check(const std::string& outDir) {
  const ropescope::PairTable pairs = ropescope::resolvePairs(biasSpec());
  for (const char* design : kDesigns) {
    const ropescope::PositionIds ids = rb::designIds(design, rb::kLiveLayout);
    const ropescope::BiasResult r1 = ropescope::biasSpread(ids, pairs, 1);
    const ropescope::BiasResult r2 = ropescope::biasSpread(ids, pairs, 2);
    rb::JsonLine line;
    line.add("case", std::string("bias/") + design)
        .add("layout", std::string(rb::kLiveLayout))
        .add("spread", r1.spread)
        .add("sum_per_text", rb::sum(r1.perText))
        .add("sum_mean_bias", rb::sum(r1.meanBias))
        .add("spread_threads2", r2.spread)
        .add("sum_mean_bias_threads2", rb::sum(r2.meanBias));
    const rb::BiasPrototypeResult pr = rb::prototypeBiasSpread(ids, pairs, 2);
    if (pr.handled)
      line.add("prototype_spread", pr.spread).add("prototype_sum_mean_bias", rb::sum(pr.meanBias));
    line.print();
    if (!outDir.empty()) rb::writeIdsNpy(outDir + "/ids_bias_" + design + ".npy", ids);
  }
  if (!outDir.empty()) {
    std::vector<double> table;
    for (int p = 0; p < pairs.size(); ++p) {
      table.push_back(static_cast<double>(static_cast<int>(pairs.axis[p])));
      table.push_back(pairs.theta[p]);
    }
    rb::writeNpy(outDir + "/pairs_bias.npy", table.data(),
                 {static_cast<std::size_t>(pairs.size()), 2});
  }
  return 0;
}

// The 1M-token long video, case (A) of the PTD-at-scale targets: ids built, then the spread.
void longVideo(benchmark::State& state, int threads) {
  const ropescope::PairTable pairs = ropescope::resolvePairs(biasSpec());
  for (auto _ : state) {
    const ropescope::PositionIds ids = rb::mropeIdsUnlimited(rb::kLongVideoLayout);
    const ropescope::BiasResult r = ropescope::biasSpread(ids, pairs, threads);
    benchmark::DoNotOptimize(r.spread);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (rb::hasFlag(argc, argv, "check")) return check(rb::flagValue(argc, argv, "ids-dir"));
  for (const char* design : kDesigns)
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("bias/" + std::string(design) + "/threads:" + std::to_string(threads)).c_str(), bias,
          std::string(design), threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  for (int threads : {1, 2})
    benchmark::RegisterBenchmark(
        ("bias/scale/A-long-video/threads:" + std::to_string(threads)).c_str(), longVideo, threads)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  benchmark::RegisterBenchmark("bias/kernel/gemm-2048x128x2048", gemmKernel)
      ->Unit(benchmark::kMillisecond);
  for (int threads : {1, 2})
    benchmark::RegisterBenchmark(
        ("bias/mrope/prototype/threads:" + std::to_string(threads)).c_str(), prototype,
        std::string("mrope"), threads)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
