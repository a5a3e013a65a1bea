// Decay-bound speed: U at 100 000 integer distances for head dim 128, base 1e4 (vanilla plan),
// with core's recurrence and with its exact-trigonometry reference; --check prints checksums.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "bench_common.h"
#include "decay_prototype.h"
#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"

namespace rb = ropescope::bench;

namespace {

ropescope::FrequencySpec decaySpec() {
  return ropescope::FrequencySpec{"vanilla", {128, 0, 1e4}};
}

void curve(benchmark::State& state, int threads) {
  for (auto _ : state) {
    const ropescope::PairTable pairs = ropescope::resolvePairs(decaySpec());
    const std::vector<double> u = ropescope::decayCurve(pairs, {1, 1, 1}, rb::kDecayMaxDistance,
                                                        ropescope::DecayForm::Full, threads);
    benchmark::DoNotOptimize(u.data());
  }
  state.SetItemsProcessed(state.iterations() * (rb::kDecayMaxDistance + 1));
}

void reference(benchmark::State& state) {
  for (auto _ : state) {
    const ropescope::PairTable pairs = ropescope::resolvePairs(decaySpec());
    const std::vector<double> u =
        ropescope::decayCurveReference(pairs, {1, 1, 1}, rb::kDecayMaxDistance);
    benchmark::DoNotOptimize(u.data());
  }
  state.SetItemsProcessed(state.iterations() * (rb::kDecayMaxDistance + 1));
}

// omega_p = theta_p * direction[axis(p)]: every pair of the vanilla plan is on t.
std::vector<double> decayOmega(const ropescope::PairTable& pairs) {
  return pairs.theta;
}

void prototype(benchmark::State& state, int anchor, int threads) {
  for (auto _ : state) {
    const ropescope::PairTable pairs = ropescope::resolvePairs(decaySpec());
    const std::vector<double> u =
        rb::prototypeDecayCurve(decayOmega(pairs), rb::kDecayMaxDistance, anchor, threads);
    benchmark::DoNotOptimize(u.data());
  }
  state.SetItemsProcessed(state.iterations() * (rb::kDecayMaxDistance + 1));
}

double maxRel(const std::vector<double>& a, const std::vector<double>& ref) {
  double m = 0;
  for (std::size_t i = 0; i < ref.size(); ++i)
    m = std::max(m, std::abs(a.at(i) - ref[i]) / std::abs(ref[i]));
  return m;
}

int check(const std::string& outDir) {
  const ropescope::PairTable pairs = ropescope::resolvePairs(decaySpec());
  const std::vector<double> u = ropescope::decayCurve(pairs, {1, 1, 1}, rb::kDecayMaxDistance);
  const std::vector<double> u2 =
      ropescope::decayCurve(pairs, {1, 1, 1}, rb::kDecayMaxDistance, ropescope::DecayForm::Full, 2);
  const std::vector<double> ref =
      ropescope::decayCurveReference(pairs, {1, 1, 1}, rb::kDecayMaxDistance);
  rb::JsonLine()
      .add("case", std::string("decay/vanilla128"))
      .add("count", static_cast<long>(u.size()))
      .add("sum", rb::sum(u))
      .add("sum_threads2", rb::sum(u2))
      .add("u10", u.at(10))
      .add("u200", u.at(200))
      .add("ulast", u.back())
      .add("core_vs_exact_max_rel", maxRel(u, ref))
      .add("prototype256_vs_exact_max_rel",
           maxRel(rb::prototypeDecayCurve(decayOmega(pairs), rb::kDecayMaxDistance, 256, 1), ref))
      .add("prototype4096_vs_exact_max_rel",
           maxRel(rb::prototypeDecayCurve(decayOmega(pairs), rb::kDecayMaxDistance, 4096, 2), ref))
      .print();
  if (!outDir.empty()) rb::writeNpy(outDir + "/decay_vanilla128.npy", u.data(), {u.size()});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (rb::hasFlag(argc, argv, "check")) return check(rb::flagValue(argc, argv, "ids-dir"));
  for (int threads : {1, 2})
    benchmark::RegisterBenchmark(
        ("decay/vanilla128/curve/threads:" + std::to_string(threads)).c_str(), curve, threads)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  for (int anchor : {256, 4096})
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(("decay/vanilla128/prototype-anchor" + std::to_string(anchor) +
                                    "/threads:" + std::to_string(threads))
                                       .c_str(),
                                   prototype, anchor, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  benchmark::RegisterBenchmark("decay/vanilla128/reference-trig", reference)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
