// Rotary pair layouts in the attention preview: NeoX (dims p, p + r/2) and GPT-J
// (dims 2p, 2p + 1), with partial rotary, against an independent float64 reference written the
// way transformers writes RoPE (hf_rope_reference.h); swapping the layout changes the result;
// the identical-q/k positional bias does not depend on the layout.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attention_cases.h"
#include "families/hf_rope_reference.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/metrics.h"
#include "ropescope/scene.h"

namespace ropescope {
namespace {

using Kind = QkSourceSpec::Kind;

AttentionProblem problemFor(const Case& c, std::uint64_t seed = 3) {
  QkSourceSpec src;
  src.kind = c.source;
  src.heads = c.heads;
  src.seed = seed;
  return makeAttentionProblem(attentionCaseScene(c), src, c.causal);
}

double baseOf(const Case& c) {
  return c.base > 0 ? c.base : defaultScene().frequency.rotary.base;
}

// Largest |a - b| / max(|b|, 1e-2 * max|b| of the row); masked entries must both be -inf / 0.
template <typename A>
double worstError(const A* a, const double* b, std::size_t n) {
  double scale = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (std::isfinite(b[j])) scale = std::max(scale, std::abs(b[j]));
  double worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (std::isinf(b[j])) {
      EXPECT_TRUE(std::isinf(double(a[j])) && a[j] < 0) << "masked entry " << j;
      continue;
    }
    worst = std::max(worst, std::abs(double(a[j]) - b[j]) / std::max(std::abs(b[j]), 1e-2 * scale));
  }
  return worst;
}

// The released shapes (reference doc section 1): GLM-4.1V head 128, rotary 64, sections
// [8,12,12], theta 1e4, GPT-J; Qwen3.5 head 256, rotary 64 interleaved [11,11,10], theta 1e7,
// NeoX; ERNIE-4.5-VL head 128 full rotary, theta 5e5, GPT-J (its own slot map is a family's;
// chunked here); and a small odd one (head 24, rotary 16, GPT-J, 1-D).
const Case kPairCases[] = {
    {"t5,i4x6,t3",
     "mrope",
     "mrope",
     128,
     64,
     true,
     Kind::Random,
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
     Kind::Random,
     1,
     PairLayout::NeoX,
     {11, 11, 10},
     1e7},
    {"t4,i5x5,t2",
     "mrope",
     "mrope",
     128,
     0,
     false,
     Kind::Random,
     1,
     PairLayout::GptJ,
     {22, 22, 20},
     5e5},
    {"t20", "mrope", "vanilla", 24, 16, true, Kind::Random, 1, PairLayout::GptJ, {}, 0},
    {"t5,i4x6,t3",
     "mrope",
     "mrope",
     128,
     64,
     false,
     Kind::Identical,
     1,
     PairLayout::GptJ,
     {8, 12, 12},
     1e4},
};

class PairCases : public ::testing::TestWithParam<Case> {};

TEST_P(PairCases, CpuAndCoreReferenceMatchTheTransformersFormulation) {
  const Case c = GetParam();
  const AttentionProblem p = problemFor(c);
  ASSERT_EQ(p.rotary.layout, c.pairs);
  const std::size_t n = p.qk.tokens;
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  for (int h = 0; h < p.qk.qHeads; ++h)
    for (AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
      const bool softmax = v == AttentionValue::Softmax;
      const auto hf = testref::hfAttention(p, h, baseOf(c), c.pairs == PairLayout::GptJ, softmax);
      const auto core = referenceAttention(p, h, v);
      std::vector<float> rows(n * n);
      cpu->rows(h, 0, n, v, rows.data());
      double worstCpu = 0, worstCore = 0;
      for (std::size_t i = 0; i < n; ++i) {
        worstCpu = std::max(worstCpu, worstError(&rows[i * n], &hf[i * n], n));
        worstCore = std::max(worstCore, worstError(&core[i * n], &hf[i * n], n));
      }
      EXPECT_LT(worstCpu, 1e-4) << c.plan << " d=" << c.headDim << " head " << h;
      EXPECT_LT(worstCore, 1e-9) << c.plan << " d=" << c.headDim << " head " << h;
    }
}

INSTANTIATE_TEST_SUITE_P(Layouts, PairCases, ::testing::ValuesIn(kPairCases));

// The same random q/k and ids under the other layout: logits move by O(1), so the layout is
// applied (and the transformers formulation of the wrong layout does not match the backend).
TEST(AttentionPairs, SwappingTheLayoutChangesTheLogits) {
  for (const Case& c : {kPairCases[0], kPairCases[1]}) {
    Case other = c;
    other.pairs = c.pairs == PairLayout::GptJ ? PairLayout::NeoX : PairLayout::GptJ;
    const AttentionProblem a = problemFor(c), b = problemFor(other);
    ASSERT_EQ(a.qk.q, b.qk.q);
    const std::size_t n = a.qk.tokens;
    auto cpu = makeCpuAttentionBackend(1);
    std::vector<float> la(n * n), lb(n * n);
    cpu->load(a);
    cpu->rows(0, 0, n, AttentionValue::Logits, la.data());
    cpu->load(b);
    cpu->rows(0, 0, n, AttentionValue::Logits, lb.data());
    double moved = 0;
    for (std::size_t i = 0; i < n * n; ++i)
      if (std::isfinite(la[i])) moved = std::max(moved, std::abs(double(la[i]) - lb[i]));
    EXPECT_GT(moved, 0.3) << c.plan;
    const auto wrong = testref::hfAttention(a, 0, baseOf(c), c.pairs != PairLayout::GptJ, false);
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
      worst = std::max(worst, worstError(&la[i * n], &wrong[i * n], n));
    EXPECT_GT(worst, 1e-2) << c.plan;
  }
}

// GPT-J on q/k equals NeoX on q/k with their dims permuted (2p -> p, 2p + 1 -> p + r/2, the
// passed-through dims kept): the two layouts are the same rotation of different dims.
TEST(AttentionPairs, GptJIsNeoXOnPermutedDims) {
  const Case c = kPairCases[0];  // GLM: head 128, rotary 64
  const AttentionProblem g = problemFor(c);
  QkTensors permuted = g.qk;
  const int d = g.qk.headDim, half = g.rotary.pairs;
  const auto permute = [&](const std::vector<float>& in, std::vector<float>& out) {
    for (std::size_t row = 0; row < in.size() / std::size_t(d); ++row) {
      const float* x = in.data() + row * d;
      float* y = out.data() + row * d;
      for (int p = 0; p < half; ++p) {
        y[p] = x[2 * p];
        y[p + half] = x[2 * p + 1];
      }
      for (int i = 2 * half; i < d; ++i) y[i] = x[i];
    }
  };
  permute(g.qk.q, permuted.q);
  permute(g.qk.k, permuted.k);
  PairTable neox = g.pairs;
  neox.layout = PairLayout::NeoX;
  const AttentionProblem x = makeAttentionProblem(permuted, g.ids, neox, g.causal);
  const std::size_t n = g.qk.tokens;
  auto cpu = makeCpuAttentionBackend(1);
  for (int h = 0; h < g.qk.qHeads; ++h) {
    std::vector<float> lg(n * n), lx(n * n);
    cpu->load(g);
    cpu->rows(h, 0, n, AttentionValue::Logits, lg.data());
    cpu->load(x);
    cpu->rows(h, 0, n, AttentionValue::Logits, lx.data());
    for (std::size_t i = 0; i < n * n; ++i)
      if (std::isfinite(lg[i])) EXPECT_NEAR(lg[i], lx[i], 1e-5) << i;
  }
}

// Identical unit q = k: a rotated pair adds (2/d) cos(phase difference) whichever two dims it
// rotates, and each of the d - r passed-through dims adds 1/d, so
// logit * sqrt(d) = (r/d) b(delta) + (d - r)/d in both layouts, with or without partial rotary.
TEST(AttentionPairs, IdenticalQkGiveThePositionalBiasInBothLayouts) {
  for (PairLayout layout : {PairLayout::NeoX, PairLayout::GptJ})
    for (int rotary : {0, 32}) {
      Case c{"t5,i3x4,t2", "mrope", "mrope", 64, rotary, false, Kind::Identical, 1, layout};
      const AttentionProblem p = problemFor(c);
      auto cpu = makeCpuAttentionBackend(1);
      cpu->load(p);
      const std::size_t n = p.qk.tokens;
      std::vector<float> logits(n * n);
      cpu->rows(0, 0, n, AttentionValue::Logits, logits.data());
      const double d = p.qk.headDim, r = 2.0 * p.rotary.pairs;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const Id3 delta{p.ids[i][0] - p.ids[j][0], p.ids[i][1] - p.ids[j][1],
                          p.ids[i][2] - p.ids[j][2]};
          const double want = r / d * positionalBias(p.pairs, delta) + (d - r) / d;
          EXPECT_NEAR(logits[i * n + j] * std::sqrt(d), want, 2e-6)
              << pairLayoutName(layout) << " rotary " << rotary << " " << i << "," << j;
        }
    }
}

TEST(AttentionPairs, PairDimsAndNames) {
  // GLM-4.1V: r = 64, 32 pairs; GPT-J pair 5 rotates dims 10, 11; NeoX pair 5 dims 5, 37.
  EXPECT_EQ(pairDims(PairLayout::GptJ, 5, 32).first, 10);
  EXPECT_EQ(pairDims(PairLayout::GptJ, 5, 32).second, 11);
  EXPECT_EQ(pairDims(PairLayout::NeoX, 5, 32).first, 5);
  EXPECT_EQ(pairDims(PairLayout::NeoX, 5, 32).second, 37);
  EXPECT_EQ(parsePairLayout("gptj"), PairLayout::GptJ);
  EXPECT_EQ(parsePairLayout("neox"), PairLayout::NeoX);
  EXPECT_STREQ(pairLayoutName(PairLayout::GptJ), "gptj");
  try {
    parsePairLayout("GPT-J");
    FAIL() << "accepted GPT-J";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("neox"), std::string::npos) << m;
    EXPECT_NE(m.find("gptj"), std::string::npos) << m;
    EXPECT_NE(m.find("GPT-J"), std::string::npos) << m;
  }
  // resolvePairs carries the layout into the table, and the table into the rotary table.
  FrequencySpec spec;
  spec.rotary.pairs = PairLayout::GptJ;
  EXPECT_EQ(resolvePairs(spec).layout, PairLayout::GptJ);
}

}  // namespace
}  // namespace ropescope
