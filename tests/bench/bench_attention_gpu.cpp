// Speed of the GPU attention backend: the whole streaming pass (upload, rotation on the
// device, online softmax over every row) for N = 4096 and 32768, d = 128. Needs an OpenGL 4.3
// context: xvfb-run -a bench_attention_gpu (Mesa llvmpipe there), or a real GPU
// (scripts/gpu-bench-h200.sh). --check=N instead compares the GPU with the CPU backend at N
// tokens (every row's max logit, peak probability and entropy; the softmax of the first and
// last 256 rows) and prints one JSON line with the largest differences.
#include <benchmark/benchmark.h>

#include <QGuiApplication>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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

// Largest |a - b| / max(1, |b|) over two vectors.
double worst(const std::vector<float>& a, const std::vector<float>& b) {
  double w = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    w = std::max(w, std::abs(double(a[i]) - b[i]) / std::max(1.0, std::abs(double(b[i]))));
  return a.size() == b.size() ? w : INFINITY;
}

int check(std::size_t n) {
  auto& gpu = gpuBackend();
  if (!gpu) return 1;
  const AttentionProblem p = problem(n, false);
  auto cpu = makeCpuAttentionBackend(0);
  gpu->load(p);
  cpu->load(p);
  const RowStats g = gpu->rowStats(0, 0, n), c = cpu->rowStats(0, 0, n);
  std::vector<float> gp, cp;
  for (float s : g.sumExp) gp.push_back(1.0f / s);
  for (float s : c.sumExp) cp.push_back(1.0f / s);
  const std::size_t rows = std::min<std::size_t>(256, n);
  double softmax = 0;
  for (std::size_t b : {std::size_t(0), n - rows}) {
    std::vector<float> gr(rows * n), cr(rows * n);
    gpu->rows(0, b, b + rows, AttentionValue::Softmax, gr.data());
    cpu->rows(0, b, b + rows, AttentionValue::Softmax, cr.data());
    for (std::size_t i = 0; i < gr.size(); ++i)
      softmax = std::max(softmax, std::abs(double(gr[i]) - cr[i]));
  }
  const double m = worst(g.max, c.max), pk = worst(gp, cp), e = worst(g.entropy, c.entropy);
  const double all = std::max({m, pk, e, softmax});
  std::printf(
      "{\"case\": \"gpu-vs-cpu\", \"n\": %zu, \"gpu\": \"%s\", \"cpu\": \"%s\", "
      "\"max_logit_diff\": %.3g, \"peak_probability_diff\": %.3g, \"entropy_diff\": %.3g, "
      "\"softmax_rows_abs_diff\": %.3g, \"max_diff\": %.3g, \"within_1e-4\": %s}\n",
      n, gpu->description().c_str(), cpu->description().c_str(), m, pk, e, softmax, all,
      all <= 1e-4 ? "true" : "false");
  return all <= 1e-4 ? 0 : 1;
}

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--check=", 8) == 0) {
      const int rc = check(std::strtoull(argv[i] + 8, nullptr, 10));
      gpuBackend().reset();
      return rc;
    }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  gpuBackend().reset();
  return 0;
}
