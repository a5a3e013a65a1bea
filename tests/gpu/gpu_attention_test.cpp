// The GPU attention backend against the CPU backend (1e-4 relative, float32, same inputs) and
// both against the double-precision reference, over layouts, designs, plans, causal on/off and
// identical / random / .npy sources. Run under xvfb-run (Mesa llvmpipe: OpenGL 4.5).
#include <gtest/gtest.h>
#include <unistd.h>

#include <QGuiApplication>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "attention/attention_cases.h"
#include "attention/layer_cases.h"
#include "families/hf_rope_reference.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope_gpu/gpu_attention.h"

namespace ropescope {
namespace {

std::unique_ptr<AttentionBackend>& gpuBackend() {
  static std::unique_ptr<AttentionBackend> g = [] {
    std::string why;
    auto b = gpu::makeGpuAttentionBackend(&why);
    if (!b) std::fprintf(stderr, "no GPU backend: %s\n", why.c_str());
    return b;
  }();
  return g;
}

AttentionProblem problemFor(const Case& c) {
  const Scene s = attentionCaseScene(c);
  QkSourceSpec src;
  src.kind = c.source;
  src.heads = c.heads;
  src.seed = 11;
  if (c.source == QkSourceSpec::Kind::Files) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("ropescope-gpu-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::size_t n = s.layout.tokenCount();
    const QkTensors r = randomQk(c.heads, 1, n, c.headDim, 5);  // grouped: all q heads on one k
    src.qPath = (dir / "q.npy").string();
    src.kPath = (dir / "k.npy").string();
    writeNpy(src.qPath, r.q.data(), r.q.size(), {std::size_t(c.heads), n, std::size_t(c.headDim)});
    writeNpy(src.kPath, r.k.data(), r.k.size(), {n, std::size_t(c.headDim)});
  }
  return makeAttentionProblem(s, src, c.causal);
}

// max |a - b| / max(|b|, 1e-2 * max|b| of the row); masked entries must match exactly.
template <typename B>
double rowError(const float* a, const B* b, std::size_t n) {
  double scale = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (std::isfinite(double(b[j]))) scale = std::max(scale, std::abs(double(b[j])));
  double worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (std::isinf(double(b[j]))) {
      EXPECT_EQ(a[j], -std::numeric_limits<float>::infinity());
      continue;
    }
    worst = std::max(worst, std::abs(double(a[j]) - double(b[j])) /
                                std::max(std::abs(double(b[j])), 1e-2 * scale));
  }
  return worst;
}

const Case kCases[] = {
    {"t5,i3x3,t2", "mrope", "mrope", 128, 0, false, QkSourceSpec::Kind::Identical, 1},
    {"t5,i3x3,t2", "circle", "mrope", 128, 0, true, QkSourceSpec::Kind::Random, 2},
    {"t7,i4x5,t3", "circle", "interleaved", 64, 0, true, QkSourceSpec::Kind::Files, 2},
    {"t3,v2x3x4,t6", "videorope", "videorope", 32, 0, false, QkSourceSpec::Kind::Random, 1},
    {"t4,i6x6,t4", "hope", "hope", 128, 0, true, QkSourceSpec::Kind::Identical, 1},
    {"t9,i5x7,t9", "hard", "vanilla", 128, 64, false, QkSourceSpec::Kind::Files, 3},
    {"t130,i12x12,t100", "mrope", "mrope", 128, 0, true, QkSourceSpec::Kind::Random, 1},
    {"t130,i12x12,t100", "mrope-reset", "mrope", 48, 0, false, QkSourceSpec::Kind::Random, 1},
    // Pair layouts with partial rotary: GLM-4.1V's GPT-J shape, Qwen3.5's NeoX one.
    {"t5,i4x6,t3",
     "mrope",
     "mrope",
     128,
     64,
     true,
     QkSourceSpec::Kind::Random,
     2,
     PairLayout::GptJ,
     {8, 12, 12},
     1e4},
    {"t6,v2x4x4,t4",
     "mrope",
     "interleaved",
     256,
     64,
     false,
     QkSourceSpec::Kind::Files,
     2,
     PairLayout::NeoX,
     {11, 11, 10},
     1e7},
    {"t20", "hard", "vanilla", 24, 16, true, QkSourceSpec::Kind::Random, 1, PairLayout::GptJ},
};

// The worst differences of the GPU's rows, row statistics and pooled blocks from the CPU's, and
// of its rows from the reference, over every head and both values; `masked` (when set) also
// requires the GPU's masked entries to be exactly the CPU's (-inf logits, 0 probabilities).
struct BackendAgreement {
  double cpu = 0, ref = 0, stats = 0, pool = 0;
};

BackendAgreement compareBackends(AttentionBackend& gpu, AttentionBackend& cpu,
                                 const AttentionProblem& p, bool masked, const std::string& what) {
  const std::size_t n = p.qk.tokens;
  BackendAgreement w;
  for (int h = 0; h < p.qk.qHeads; ++h)
    for (AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
      std::vector<float> g(n * n), cp(n * n);
      gpu.rows(h, 0, n, v, g.data());
      cpu.rows(h, 0, n, v, cp.data());
      const auto ref = referenceAttention(p, h, v);
      if (masked) {
        std::size_t differ = 0;
        for (std::size_t i = 0; i < n * n; ++i)
          differ += (cp[i] == 0.0f || std::isinf(cp[i])) && g[i] != cp[i];
        EXPECT_EQ(differ, 0u) << what << ": masked entries the GPU gives otherwise, head " << h;
      }
      for (std::size_t i = 0; i < n; ++i) {
        w.cpu = std::max(w.cpu, rowError(&g[i * n], &cp[i * n], n));
        w.ref = std::max(w.ref, rowError(&g[i * n], &ref[i * n], n));
      }
      const RowStats gs = gpu.rowStats(h, 0, n), cs = cpu.rowStats(h, 0, n);
      for (std::size_t i = 0; i < n; ++i) {
        w.stats = std::max(w.stats, std::abs(double(gs.max[i]) - cs.max[i]) /
                                        std::max(1.0, std::abs(double(cs.max[i]))));
        w.stats = std::max(w.stats, std::abs(double(gs.sumExp[i]) - cs.sumExp[i]) / cs.sumExp[i]);
        w.stats = std::max(w.stats, std::abs(double(gs.entropy[i]) - cs.entropy[i]) /
                                        std::max(1.0, double(cs.entropy[i])));
      }
      for (int block : {1, 7, 64}) {
        const std::size_t nb = (n + block - 1) / block;
        std::vector<float> gp(nb * nb), cpp(nb * nb);
        gpu.pooled(h, block, v, gp.data());
        cpu.pooled(h, block, v, cpp.data());
        for (std::size_t I = 0; I < nb; ++I)
          w.pool = std::max(w.pool, rowError(&gp[I * nb], &cpp[I * nb], nb));
      }
    }
  EXPECT_LT(w.cpu, 1e-4) << what;
  EXPECT_LT(w.ref, 1e-4) << what;
  EXPECT_LT(w.stats, 1e-4) << what;
  EXPECT_LT(w.pool, 1e-4) << what;
  return w;
}

class GpuCases : public ::testing::TestWithParam<Case> {};

TEST_P(GpuCases, AgreesWithCpuAndReference) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu) << "no OpenGL 4.3 context (run under xvfb-run)";
  const Case c = GetParam();
  const AttentionProblem p = problemFor(c);
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  gpu->load(p);
  ASSERT_EQ(gpu->heads(), cpu->heads());
  const BackendAgreement w = compareBackends(*gpu, *cpu, p, false, c.layout);
  std::printf(
      "[ agreement ] %s %s %s d=%d causal=%d: gpu-cpu %.2e, gpu-ref %.2e, stats %.2e, pooled "
      "%.2e\n",
      c.layout, c.design, c.plan, c.headDim, int(c.causal), w.cpu, w.ref, w.stats, w.pool);
}

INSTANTIATE_TEST_SUITE_P(Layouts, GpuCases, ::testing::ValuesIn(kCases));

// A layer's mask (sliding window, chunk, picture blocks), NoPE with the temperature on q and a
// logit scale (tests/core/attention/layer_cases.h): the GPU gives the CPU's numbers, masked
// entries alike (-inf logits, 0 probabilities), and the reference's.
class GpuLayerCases : public ::testing::TestWithParam<LayerCase> {};

TEST_P(GpuLayerCases, AgreesWithCpuAndReference) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu) << "no OpenGL 4.3 context (run under xvfb-run)";
  const LayerCase c = GetParam();
  const AttentionProblem p = layerCaseProblem(c);
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  gpu->load(p);
  const BackendAgreement w = compareBackends(*gpu, *cpu, p, true, c.name);
  std::printf("[ agreement ] layer %s: gpu-cpu %.2e, gpu-ref %.2e, stats %.2e, pooled %.2e\n",
              c.name, w.cpu, w.ref, w.stats, w.pool);
}

INSTANTIATE_TEST_SUITE_P(Masks, GpuLayerCases, ::testing::ValuesIn(layerCases()),
                         [](const auto& info) { return std::string(info.param.name); });

// The GPU rotation in both pair layouts against the float64 reference written the way
// transformers writes RoPE (tests/core/families/hf_rope_reference.h), not core's
// referenceAttention.
TEST(GpuAttention, PairLayoutsMatchTheTransformersFormulation) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu);
  for (const Case& c : kCases) {
    if (c.pairs == PairLayout::NeoX && c.rotaryDim == 0) continue;
    const AttentionProblem p = problemFor(c);
    const std::size_t n = p.qk.tokens;
    const double base = c.base > 0 ? c.base : defaultScene().frequency.rotary.base;
    gpu->load(p);
    double worst = 0;
    for (int h = 0; h < p.qk.qHeads; ++h)
      for (AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
        const auto hf = testref::hfAttention(p, h, base, c.pairs == PairLayout::GptJ,
                                             v == AttentionValue::Softmax);
        std::vector<float> g(n * n);
        gpu->rows(h, 0, n, v, g.data());
        for (std::size_t i = 0; i < n; ++i)
          worst = std::max(worst, rowError(&g[i * n], &hf[i * n], n));
      }
    std::printf("[ agreement ] %s %s d=%d r=%d %s: gpu-hf %.2e\n", c.layout, c.plan, c.headDim,
                c.rotaryDim, pairLayoutName(c.pairs), worst);
    EXPECT_LT(worst, 1e-4) << c.layout << " " << pairLayoutName(c.pairs);
  }
}

// A rope scaling's attention factor multiplies cos and sin on the GPU as on the CPU: the GPU
// agrees with the CPU and the reference, and its logits are those of the same frequencies with
// attention_factor 1 times the factor squared (full rotary, and partial GPT-J where only the
// rotated dims carry it).
TEST(GpuAttention, RopeScalingAttentionFactorMatchesTheCpu) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu);
  const Case cases[] = {
      {"t5,i4x6,t3",
       "mrope",
       "mrope",
       128,
       0,
       true,
       QkSourceSpec::Kind::Random,
       2,
       PairLayout::NeoX,
       {16, 24, 24},
       1e6},
      {"t5,i4x6,t3",
       "mrope",
       "mrope",
       128,
       64,
       false,
       QkSourceSpec::Kind::Random,
       1,
       PairLayout::GptJ,
       {8, 12, 12},
       1e4},
  };
  for (const Case& c : cases) {
    Scene s = attentionCaseScene(c);
    s.frequency.rope.type = "yarn";
    s.frequency.rope.params.set("factor", 4.0);
    s.frequency.rope.params.set("original_max_position_embeddings", 32768.0);
    Scene plain = s;
    plain.frequency.rope.params.set("attention_factor", 1.0);
    QkSourceSpec src;
    src.kind = c.source;
    src.heads = c.heads;
    src.seed = 3;
    const AttentionProblem p = makeAttentionProblem(s, src, c.causal);
    const AttentionProblem u = makeAttentionProblem(plain, src, c.causal);
    const double factor = 0.1 * std::log(4.0) + 1.0;
    ASSERT_EQ(p.pairs.attentionFactor, factor);
    const std::size_t n = p.qk.tokens;
    auto cpu = makeCpuAttentionBackend(2);
    cpu->load(p);
    double worstCpu = 0, worstRef = 0, worstScale = 0;
    std::vector<std::vector<float>> scaledLogits;
    gpu->load(p);
    for (int h = 0; h < p.qk.qHeads; ++h)
      for (AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
        std::vector<float> g(n * n), cp(n * n);
        gpu->rows(h, 0, n, v, g.data());
        cpu->rows(h, 0, n, v, cp.data());
        const auto ref = referenceAttention(p, h, v);
        for (std::size_t i = 0; i < n; ++i) {
          worstCpu = std::max(worstCpu, rowError(&g[i * n], &cp[i * n], n));
          worstRef = std::max(worstRef, rowError(&g[i * n], &ref[i * n], n));
        }
        if (v == AttentionValue::Logits) scaledLogits.push_back(g);
      }
    gpu->load(u);
    const bool partial = c.rotaryDim != 0;
    for (int h = 0; h < u.qk.qHeads; ++h) {
      std::vector<float> g(n * n);
      gpu->rows(h, 0, n, AttentionValue::Logits, g.data());
      for (float& x : g) x = static_cast<float>(double(x) * factor * factor);
      const std::vector<float>& want = scaledLogits[std::size_t(h)];
      for (std::size_t i = 0; i < n; ++i)
        worstScale = std::max(worstScale, rowError(&g[i * n], &want[i * n], n));
    }
    std::printf("[ agreement ] yarn %s d=%d r=%d: gpu-cpu %.2e, gpu-ref %.2e, x factor^2 %.2e\n",
                c.layout, c.headDim, c.rotaryDim, worstCpu, worstRef, worstScale);
    EXPECT_LT(worstCpu, 1e-4);
    EXPECT_LT(worstRef, 1e-4);
    // Full rotary: every logit is the unscaled one times factor^2; partial: the pass-through
    // dims are not scaled, so some logits differ by far more than float rounding.
    if (partial)
      EXPECT_GT(worstScale, 1e-2);
    else
      EXPECT_LT(worstScale, 1e-4);
  }
}

TEST(GpuAttention, DescribesItselfAndRejectsBadRequests) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->name(), "gpu");
  EXPECT_NE(gpu->description().find("OpenGL"), std::string::npos) << gpu->description();
  std::printf("[ device ] %s\n", gpu->description().c_str());
  const AttentionProblem p =
      problemFor({"t5,i3x3,t2", "mrope", "mrope", 16, 0, false, QkSourceSpec::Kind::Random, 1});
  gpu->load(p);
  float out[256];
  EXPECT_THROW(gpu->rows(1, 0, 1, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(gpu->rows(0, 3, 2, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(gpu->pooled(0, 0, AttentionValue::Logits, out), InputError);
}

TEST(GpuAttention, SelectionFollowsTheChoice) {
  EXPECT_EQ(gpu::selectAttentionBackend(BackendChoice::Cpu, 1).backend->name(), "cpu");
  const auto forced = gpu::selectAttentionBackend(BackendChoice::Gpu, 1);
  ASSERT_EQ(forced.backend->name(), "gpu") << forced.note;
  EXPECT_TRUE(forced.note.empty());
  // auto takes the GPU unless it is a software renderer, where the CPU path is faster.
  const auto a = gpu::selectAttentionBackend(BackendChoice::Auto, 1);
  const bool software = forced.backend->description().find("llvmpipe") != std::string::npos ||
                        forced.backend->description().find("softpipe") != std::string::npos;
  EXPECT_EQ(a.backend->name(), software ? "cpu" : "gpu") << a.note;
  EXPECT_EQ(a.note.empty(), !software) << a.note;
}

// A longer sequence: many work groups, key tiles and more than one key chunk (8192 keys per
// dispatch, which keeps llvmpipe under its 65535-iteration loop limit).
TEST(GpuAttention, LongerSequenceRowsAndStats) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu);
  const AttentionProblem p = problemFor(
      {"t4000,i64x64,t2000", "mrope", "mrope", 128, 0, true, QkSourceSpec::Kind::Random, 1});
  const std::size_t n = p.qk.tokens;
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  gpu->load(p);
  std::vector<float> g(70 * n), c(70 * n);
  gpu->rows(0, 1900, 1970, AttentionValue::Softmax, g.data());
  cpu->rows(0, 1900, 1970, AttentionValue::Softmax, c.data());
  double worst = 0;
  for (std::size_t i = 0; i < 70; ++i) worst = std::max(worst, rowError(&g[i * n], &c[i * n], n));
  const RowStats gs = gpu->rowStats(0, 9000, n), cs = cpu->rowStats(0, 9000, n);
  double worstStats = 0;
  for (std::size_t i = 0; i < n - 9000; ++i)
    worstStats = std::max(worstStats, std::abs(double(gs.sumExp[i]) - cs.sumExp[i]) / cs.sumExp[i]);
  std::printf("[ agreement ] N=%zu rows 1900:1970 %.2e, stats %.2e\n", n, worst, worstStats);
  EXPECT_LT(worst, 1e-4);
  EXPECT_LT(worstStats, 1e-4);
}

// A larger head dim: smaller key chunks per dispatch (llvmpipe's loop budget; 5714 keys at
// d = 256), more than one of them at N = 5900. (d = 1024 works too but llvmpipe needs minutes
// to compile its unrolled shaders.)
TEST(GpuAttention, LargerHeadDimUsesSeveralKeyChunks) {
  auto& gpu = gpuBackend();
  ASSERT_TRUE(gpu);
  const AttentionProblem p =
      problemFor({"t5900", "hard", "vanilla", 256, 0, false, QkSourceSpec::Kind::Random, 1});
  const std::size_t n = p.qk.tokens;
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  gpu->load(p);
  const RowStats gs = gpu->rowStats(0, 5800, 5864), cs = cpu->rowStats(0, 5800, 5864);
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i)
    worst = std::max(worst, std::abs(double(gs.sumExp[i]) - cs.sumExp[i]) / cs.sumExp[i]);
  std::vector<float> g(4 * n), c(4 * n);
  gpu->rows(0, 5800, 5804, AttentionValue::Softmax, g.data());
  cpu->rows(0, 5800, 5804, AttentionValue::Softmax, c.data());
  double worstRows = 0;
  for (std::size_t i = 0; i < 4; ++i)
    worstRows = std::max(worstRows, rowError(&g[i * n], &c[i * n], n));
  std::printf("[ agreement ] d=256 N=%zu stats %.2e rows %.2e\n", n, worst, worstRows);
  EXPECT_LT(worst, 1e-4);
  EXPECT_LT(worstRows, 1e-4);
}

}  // namespace
}  // namespace ropescope

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  ropescope::gpuBackend().reset();  // GL objects go while the application still exists
  return rc;
}
