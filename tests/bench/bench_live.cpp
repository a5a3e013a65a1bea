// Live-update speed: computeSceneMetrics (ids, PTD, bias spread, three decay curves, profiles)
// for the 4096-token layout t1024,i32x64,t1024 on one core, and its parts one by one; the same
// scene with Qwen2.5-VL's YaRN block (factor 4 from 32768) beside it, which should cost the same.
#include <benchmark/benchmark.h>

#include <string>

#include "bench_common.h"
#include "bias_prototype.h"
#include "ptd_prototype.h"
#include "ropescope/decay.h"
#include "ropescope/metrics.h"
#include "ropescope/scene_metrics.h"

namespace rb = ropescope::bench;

namespace {

const char* const kDesigns[] = {"mrope", "circle"};

ropescope::Scene liveScene(const std::string& design, bool yarn = false) {
  ropescope::Scene s = ropescope::defaultScene();
  s.layout = ropescope::parseLayoutSpec(rb::kLiveLayout);
  s.design = design;
  s.designParams = {};
  if (yarn) {
    s.frequency.rope.type = "yarn";
    s.frequency.rope.params.set("factor", 4.0);
    s.frequency.rope.params.set("original_max_position_embeddings", 32768.0);
  }
  return s;
}

void sceneMetrics(benchmark::State& state, std::string design, int threads, bool yarn) {
  const ropescope::Scene scene = liveScene(design, yarn);
  for (auto _ : state) {
    const ropescope::SceneMetrics m = ropescope::computeSceneMetrics(scene, 256, threads);
    benchmark::DoNotOptimize(m.ptd.ptd);
  }
}

// The parts computeSceneMetrics is made of, to show where a frame goes.
enum class Part { Ids, Ptd, Bias, Decay, Pairs };

void part(benchmark::State& state, std::string design, Part which, bool yarn) {
  const ropescope::Scene scene = liveScene(design, yarn);
  const ropescope::PositionIds ids = rb::designIds(design, rb::kLiveLayout);
  const ropescope::PairTable pairs = ropescope::resolvePairs(scene.frequency);
  for (auto _ : state) {
    switch (which) {
      case Part::Ids:
        benchmark::DoNotOptimize(rb::designIds(design, rb::kLiveLayout).ids.data());
        break;
      case Part::Ptd:
        benchmark::DoNotOptimize(ropescope::perTokenDistance(ids, 1).ptd);
        break;
      case Part::Bias:
        benchmark::DoNotOptimize(ropescope::biasSpread(ids, pairs, 1).spread);
        break;
      case Part::Decay:
        for (const ropescope::Id3& dir :
             {ropescope::Id3{1, 0, 0}, ropescope::Id3{0, 1, 0}, ropescope::Id3{0, 0, 1}})
          benchmark::DoNotOptimize(ropescope::decayCurve(pairs, dir, 256).data());
        break;
      case Part::Pairs:  // the frequency table, scaled when the scene has a rope scaling
        benchmark::DoNotOptimize(ropescope::resolvePairs(scene.frequency).theta.data());
        break;
    }
  }
}

// What a fixed core could reach for integer ids: the prototype PTD and bias kernels plus core's
// decay curves and the selected token's profiles (the rest of computeSceneMetrics).
void prototypeLive(benchmark::State& state, std::string design) {
  const ropescope::Scene scene = liveScene(design);
  for (auto _ : state) {
    const ropescope::PositionIds ids = rb::designIds(design, rb::kLiveLayout);
    const ropescope::PairTable pairs = ropescope::resolvePairs(scene.frequency);
    benchmark::DoNotOptimize(rb::prototypePtd<rb::SqrtKind::Exact>(ids, 1).ptd);
    const rb::BiasPrototypeResult b = rb::prototypeBiasSpread(ids, pairs, 1);
    if (!b.handled) state.SkipWithError("prototype handles integer ids only");
    for (const ropescope::Id3& dir :
         {ropescope::Id3{1, 0, 0}, ropescope::Id3{0, 1, 0}, ropescope::Id3{0, 0, 1}})
      benchmark::DoNotOptimize(ropescope::decayCurve(pairs, dir, 256).data());
    const std::size_t token = ids.textIndices().front();
    benchmark::DoNotOptimize(ropescope::distancesToVisual(ids, token).data());
    benchmark::DoNotOptimize(ropescope::biasToVisual(ids, pairs, token).data());
  }
}

int check() {
  for (const bool yarn : {false, true})
    for (const char* design : kDesigns) {
      const ropescope::SceneMetrics m = ropescope::computeSceneMetrics(liveScene(design, yarn));
      rb::JsonLine()
          .add("case", std::string("live/") + design + (yarn ? "+yarn" : ""))
          .add("layout", std::string(rb::kLiveLayout))
          .add("tokens", static_cast<long>(m.ids.size()))
          .add("ptd", m.ptd.ptd)
          .add("bias_spread", m.bias.spread)
          .add("decay_t_sum", rb::sum(m.decayAxis[0]))
          .print();
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (rb::hasFlag(argc, argv, "check")) return check();
  for (const bool yarn : {false, true})
    for (const char* design : kDesigns) {
      const std::string d = std::string(design) + (yarn ? "+yarn" : "");
      for (int threads : {1, 2})
        benchmark::RegisterBenchmark(
            ("live/scene-metrics/" + d + "/threads:" + std::to_string(threads)).c_str(),
            sceneMetrics, std::string(design), threads, yarn)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      const std::pair<const char*, Part> parts[] = {{"ids", Part::Ids},
                                                    {"ptd", Part::Ptd},
                                                    {"bias", Part::Bias},
                                                    {"decay3", Part::Decay},
                                                    {"pairs", Part::Pairs}};
      for (const auto& [name, which] : parts)
        benchmark::RegisterBenchmark(("live/part/" + d + "/" + name).c_str(), part,
                                     std::string(design), which, yarn)
            ->Unit(benchmark::kMillisecond);
    }
  benchmark::RegisterBenchmark("live/prototype-kernels/mrope", prototypeLive, std::string("mrope"))
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
