// Speed of the GPU attention backend (issue 5): the whole streaming pass (upload, rotation on the
// device, online softmax over every row) for N = 4096 and 32768, d = 128. Needs an X display:
// xvfb-run -a bench_attention_gpu (Mesa llvmpipe there; a real GPU where one is lent).
#include <benchmark/benchmark.h>

#include <QGuiApplication>
#include <cstdio>

#include "ropescope/attention.h"
#include "ropescope/scene.h"
#include "ropescope_gpu/gpu_attention.h"

namespace {

using namespace ropescope;

std::unique_ptr<AttentionBackend>& gpuBackend() {
  static std::unique_ptr<AttentionBackend> g = [] {
    std::string why;
    auto b = gpu::makeGpuAttentionBackend(&why);
    if (!b) std::fprintf(stderr, "bench_attention_gpu: no GPU backend: %s\n", why.c_str());
    return b;
  }();
  return g;
}

AttentionProblem problem(std::size_t n, bool causal) {
  Scene s = defaultScene();
  const std::size_t side = n >= 8192 ? 64 : 32;  // the image: a quarter or less of the tokens
  const std::size_t text = n - side * side;
  s.layout = parseLayoutSpec("t" + std::to_string(text / 2) + ",i" + std::to_string(side) + "x" +
                             std::to_string(side) + ",t" + std::to_string(text - text / 2));
  s.design = "mrope";
  s.designParams = ParameterSet{};
  s.frequency.plan = "mrope";
  s.frequency.sections.clear();
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.seed = 1;
  return makeAttentionProblem(s, src, causal);
}

void BM_GpuWholePassStreaming(benchmark::State& state) {
  auto& gpu = gpuBackend();
  if (!gpu) {
    state.SkipWithError("no OpenGL 4.3 context");
    return;
  }
  const std::size_t n = std::size_t(state.range(0));
  const AttentionProblem p = problem(n, state.range(1) != 0);
  for (auto _ : state) {
    gpu->load(p);
    RowStats st = gpu->rowStats(0, 0, n);
    benchmark::DoNotOptimize(st.sumExp.data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(2.0 * double(n) * double(n) * 128.0,
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
  state.SetLabel(gpu->description());
}

BENCHMARK(BM_GpuWholePassStreaming)
    ->Args({4096, 0})
    ->Args({32768, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  gpuBackend().reset();
  return 0;
}
