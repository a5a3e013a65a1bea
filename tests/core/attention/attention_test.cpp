// The attention preview's CPU backend against the double-precision reference (rows, row stats,
// pooled blocks), over layouts, designs, plans, causal on/off and every q/k source.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>

#include "attention_cases.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/metrics.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"

namespace ropescope {
namespace {

std::filesystem::path tempDir() {
  static const auto d = [] {
    auto p =
        std::filesystem::temp_directory_path() / ("ropescope-attn-" + std::to_string(getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return d;
}

AttentionProblem problemFor(const Case& c, std::uint64_t seed = 7) {
  const Scene s = attentionCaseScene(c);
  QkSourceSpec src;
  src.kind = c.source;
  src.heads = c.heads;
  src.seed = seed;
  if (c.source == QkSourceSpec::Kind::Files) {
    // Random q/k written as .npy ([heads, N, d]) and read back: the file path end to end.
    const std::size_t n = s.layout.tokenCount();
    const QkTensors r = randomQk(c.heads, c.heads, n, c.headDim, seed);
    src.qPath = (tempDir() / "q.npy").string();
    src.kPath = (tempDir() / "k.npy").string();
    const std::vector<std::size_t> shape{std::size_t(c.heads), n, std::size_t(c.headDim)};
    writeNpy(src.qPath, r.q.data(), r.q.size(), shape);
    writeNpy(src.kPath, r.k.data(), r.k.size(), shape);
  }
  return makeAttentionProblem(s, src, c.causal);
}

// Largest |a - b| / max(|b|, floor) over a row, floor = 1e-2 of the row's largest |b|: relative
// where values matter, absolute near zero where float logits cancel.
double rowError(const float* a, const double* b, std::size_t n) {
  double scale = 0.0;
  for (std::size_t j = 0; j < n; ++j)
    if (std::isfinite(b[j])) scale = std::max(scale, std::abs(b[j]));
  double worst = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    if (std::isinf(b[j])) {
      EXPECT_TRUE(std::isinf(a[j]) && a[j] < 0) << "masked entry " << j;
      continue;
    }
    worst = std::max(worst, std::abs(double(a[j]) - b[j]) / std::max(std::abs(b[j]), 1e-2 * scale));
  }
  return worst;
}

const Case kCases[] = {
    {"t5,i3x3,t2", "mrope", "mrope", 16, 0, false, QkSourceSpec::Kind::Random, 2},
    {"t5,i3x3,t2", "mrope", "mrope", 16, 0, true, QkSourceSpec::Kind::Identical, 1},
    {"t7,i4x5,t3", "circle", "interleaved", 32, 0, true, QkSourceSpec::Kind::Random, 1},
    {"t3,v2x3x4,t6", "videorope", "videorope", 64, 0, false, QkSourceSpec::Kind::Files, 2},
    {"t4,i6x6,t4", "hope", "hope", 32, 0, true, QkSourceSpec::Kind::Files, 1},
    {"t9,i5x7,t9", "hard", "vanilla", 128, 64, false, QkSourceSpec::Kind::Random, 1},
    {"t2,i3x4,t2", "spatial", "mrope", 24, 0, false, QkSourceSpec::Kind::Identical, 3},
    // Crosses the 256-row and 512-column tiles, causal and not.
    {"t300,i20x20,t300", "mrope", "mrope", 32, 0, true, QkSourceSpec::Kind::Random, 1},
    {"t300,i20x20,t300", "mrope-reset", "mrope", 16, 0, false, QkSourceSpec::Kind::Random, 1},
};

class AttentionCases : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionCases, CpuMatchesDoubleReference) {
  const Case c = GetParam();
  const AttentionProblem p = problemFor(c);
  const std::size_t n = p.qk.tokens;
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  ASSERT_EQ(cpu->heads(), c.heads);
  for (int h = 0; h < c.heads; ++h) {
    const auto refL = referenceAttention(p, h, AttentionValue::Logits);
    const auto refP = referenceAttention(p, h, AttentionValue::Softmax);
    std::vector<float> rowsL(n * n), rowsP(n * n);
    cpu->rows(h, 0, n, AttentionValue::Logits, rowsL.data());
    cpu->rows(h, 0, n, AttentionValue::Softmax, rowsP.data());
    // Row stats against the reference row.
    const auto expectStats = [&](const RowStats& st, const char* pass) {
      for (std::size_t i = 0; i < n; ++i) {
        double m = -std::numeric_limits<double>::infinity(), pmax = 0, ent = 0;
        for (std::size_t j = 0; j < n; ++j) {
          m = std::max(m, refL[i * n + j]);
          pmax = std::max(pmax, refP[i * n + j]);
          if (refP[i * n + j] > 0) ent -= refP[i * n + j] * std::log(refP[i * n + j]);
        }
        EXPECT_NEAR(st.max[i], m, 1e-5 * std::max(1.0, std::abs(m))) << pass << " row " << i;
        EXPECT_NEAR(1.0 / st.sumExp[i], pmax, 1e-5 * pmax) << pass << " row " << i;
        EXPECT_NEAR(st.entropy[i], ent, 1e-4 * std::max(1.0, ent)) << pass << " row " << i;
      }
    };
    expectStats(cpu->rowStats(h, 0, n), "streaming");
    double worstL = 0, worstP = 0;
    for (std::size_t i = 0; i < n; ++i) {
      worstL = std::max(worstL, rowError(&rowsL[i * n], &refL[i * n], n));
      worstP = std::max(worstP, rowError(&rowsP[i * n], &refP[i * n], n));
    }
    EXPECT_LT(worstL, 1e-4) << c.layout << " " << c.design << " head " << h;
    EXPECT_LT(worstP, 1e-4) << c.layout << " " << c.design << " head " << h;

    // One pass (rowsAndStats): the rows and their statistics from each logit computed once.
    for (const AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
      const bool sm = v == AttentionValue::Softmax;
      std::vector<float> rows(n * n);
      expectStats(cpu->rowsAndStats(h, 0, n, v, rows.data()), sm ? "one-pass softmax" : "one-pass");
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, rowError(&rows[i * n], sm ? &refP[i * n] : &refL[i * n], n));
      EXPECT_LT(worst, 1e-4) << c.layout << " " << c.design << " head " << h << " one pass";
    }

    // Pooled blocks (one that divides N and one that does not) against the reference means.
    for (int block : {1, 3, 8}) {
      const std::size_t nb = (n + block - 1) / block;
      std::vector<float> poolL(nb * nb), poolP(nb * nb);
      cpu->pooled(h, block, AttentionValue::Logits, poolL.data());
      cpu->pooled(h, block, AttentionValue::Softmax, poolP.data());
      for (std::size_t I = 0; I < nb; ++I)
        for (std::size_t J = 0; J < nb; ++J) {
          double sl = 0, sp = 0, cl = 0, cells = 0;
          for (std::size_t i = I * block; i < std::min(n, (I + 1) * block); ++i)
            for (std::size_t j = J * block; j < std::min(n, (J + 1) * block); ++j) {
              ++cells;
              sp += refP[i * n + j];
              if (!std::isinf(refL[i * n + j])) {
                sl += refL[i * n + j];
                ++cl;
              }
            }
          const float gotL = poolL[I * nb + J], gotP = poolP[I * nb + J];
          EXPECT_NEAR(gotP, sp / cells, 1e-4 * std::max(sp / cells, 1e-6)) << I << "," << J;
          if (cl == 0)
            EXPECT_TRUE(std::isinf(gotL) && gotL < 0);
          else
            EXPECT_NEAR(gotL, sl / cl, 1e-4 * std::max(std::abs(sl / cl), 1e-2)) << I << "," << J;
        }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, AttentionCases, ::testing::ValuesIn(kCases));

TEST(Attention, IdenticalUnitVectorsGiveThePositionalBias) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t5,i3x3,t2");
  s.design = "mrope";
  s.designParams = ParameterSet{};
  s.frequency.plan = "mrope";
  s.frequency.sections.clear();
  QkSourceSpec src;  // identical
  const AttentionProblem p = makeAttentionProblem(s, src, false);
  auto cpu = makeCpuAttentionBackend(1);
  cpu->load(p);
  const std::size_t n = p.qk.tokens;
  std::vector<float> logits(n * n);
  cpu->rows(0, 0, n, AttentionValue::Logits, logits.data());
  const double sqrtD = std::sqrt(double(p.qk.headDim));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const Id3 delta{p.ids[i][0] - p.ids[j][0], p.ids[i][1] - p.ids[j][1],
                      p.ids[i][2] - p.ids[j][2]};
      EXPECT_NEAR(logits[i * n + j] * sqrtD, positionalBias(p.pairs, delta), 2e-6);
    }
}

// transformers multiplies cos and sin by the scaling's attention factor: the logits of a YaRN
// config are those of the same frequencies with attention_factor 1, times the factor squared.
TEST(Attention, RopeScalingMultipliesTheLogitsByTheAttentionFactorSquared) {
  Scene s = attentionCaseScene({"t5,i3x3,t2",
                                "mrope",
                                "mrope",
                                128,
                                0,
                                false,
                                QkSourceSpec::Kind::Random,
                                2,
                                PairLayout::NeoX,
                                {16, 24, 24},
                                1e6});
  s.frequency.rope.type = "yarn";
  s.frequency.rope.params.set("factor", 4.0);
  s.frequency.rope.params.set("original_max_position_embeddings", 32768.0);
  Scene plain = s;
  plain.frequency.rope.params.set("attention_factor", 1.0);
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.heads = 2;
  src.seed = 5;
  const AttentionProblem scaled = makeAttentionProblem(s, src, true);
  const AttentionProblem unscaled = makeAttentionProblem(plain, src, true);
  const double factor = 0.1 * std::log(4.0) + 1.0;
  ASSERT_EQ(scaled.pairs.attentionFactor, factor);
  ASSERT_EQ(unscaled.pairs.attentionFactor, 1.0);
  ASSERT_EQ(scaled.pairs.theta, unscaled.pairs.theta);
  EXPECT_NEAR(factor * factor, 1.2965, 5e-5);
  const std::size_t n = scaled.qk.tokens;
  auto a = makeCpuAttentionBackend(2), b = makeCpuAttentionBackend(2);
  a->load(scaled);
  b->load(unscaled);
  for (int head = 0; head < 2; ++head) {
    std::vector<float> la(n * n), lb(n * n), pa(n * n);
    a->rows(head, 0, n, AttentionValue::Logits, la.data());
    b->rows(head, 0, n, AttentionValue::Logits, lb.data());
    a->rows(head, 0, n, AttentionValue::Softmax, pa.data());
    const std::vector<double> ra = referenceAttention(scaled, head, AttentionValue::Logits);
    const std::vector<double> rb = referenceAttention(unscaled, head, AttentionValue::Logits);
    for (std::size_t i = 0; i < n; ++i) {
      // The softmax of the unscaled logits times factor^2, formed here in double.
      double m = -std::numeric_limits<double>::infinity(), sum = 0.0;
      for (std::size_t j = 0; j <= i; ++j) m = std::max(m, rb[i * n + j] * factor * factor);
      for (std::size_t j = 0; j <= i; ++j) sum += std::exp(rb[i * n + j] * factor * factor - m);
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t k = i * n + j;
        if (j > i) {
          EXPECT_TRUE(std::isinf(la[k]) && la[k] < 0);
          EXPECT_EQ(pa[k], 0.0f);
          continue;
        }
        EXPECT_NEAR(ra[k], rb[k] * factor * factor, 1e-12 * (1.0 + std::abs(ra[k])));
        EXPECT_NEAR(la[k], double(lb[k]) * factor * factor, 2e-5 * (1.0 + std::abs(la[k])));
        EXPECT_NEAR(la[k], ra[k], 2e-5 * (1.0 + std::abs(ra[k])));
        EXPECT_NEAR(pa[k], std::exp(rb[k] * factor * factor - m) / sum, 1e-5);
      }
    }
  }
}

// Only the rotated dims carry the factor (transformers scales cos and sin, and concatenates the
// pass-through dims unchanged): with identical unit q and k, a token against itself has
// logit * sqrt(d) = factor^2 * rotaryDim / d + (d - rotaryDim) / d.
TEST(Attention, AttentionFactorLeavesPassThroughDimsAlone) {
  Scene s = attentionCaseScene(
      {"t6", "hard", "vanilla", 64, 16, false, QkSourceSpec::Kind::Identical, 1});
  s.frequency.rope.type = "yarn";
  s.frequency.rope.params.set("factor", 2.0);
  s.frequency.rope.params.set("original_max_position_embeddings", 4096.0);
  s.frequency.rope.params.set("attention_factor", 1.5);
  const AttentionProblem p = makeAttentionProblem(s, QkSourceSpec{}, false);
  ASSERT_EQ(p.pairs.attentionFactor, 1.5);
  auto cpu = makeCpuAttentionBackend(1);
  cpu->load(p);
  const std::size_t n = p.qk.tokens;
  std::vector<float> logits(n * n);
  cpu->rows(0, 0, n, AttentionValue::Logits, logits.data());
  const std::vector<double> ref = referenceAttention(p, 0, AttentionValue::Logits);
  const double want = (2.25 * 16.0 / 64.0 + 48.0 / 64.0) / std::sqrt(64.0);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(ref[i * n + i], want, 1e-12);
    EXPECT_NEAR(logits[i * n + i], want, 1e-6);
  }
}

TEST(Attention, RandomSourceIsReproducibleAndStandardNormal) {
  const QkTensors a = randomQk(2, 1, 100, 64, 42), b = randomQk(2, 1, 100, 64, 42);
  const QkTensors c = randomQk(2, 1, 100, 64, 43);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.k, b.k);
  EXPECT_NE(a.q, c.q);
  ASSERT_EQ(a.q.size(), 2u * 100 * 64);
  ASSERT_EQ(a.k.size(), 1u * 100 * 64);
  double sum = 0, sq = 0;
  for (float x : a.q) {
    sum += x;
    sq += double(x) * x;
  }
  const double mean = sum / a.q.size(), var = sq / a.q.size() - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(var, 1.0, 0.05);
  // The documented transform, by hand, for the first two values.
  std::mt19937_64 rng(42);
  const double u1 = double((rng() >> 11) + 1) * 0x1.0p-53,
               u2 = double((rng() >> 11) + 1) * 0x1.0p-53;
  const double r = std::sqrt(-2.0 * std::log(u1)), ang = 2.0 * 3.14159265358979323846 * u2;
  EXPECT_EQ(a.q[0], static_cast<float>(r * std::cos(ang)));
  EXPECT_EQ(a.q[1], static_cast<float>(r * std::sin(ang)));
  // The stream goes on from q's last value into k: k's first pair is pair q.size() / 2.
  double ku1 = 0, ku2 = 0;
  for (std::size_t p = 1; p <= a.q.size() / 2; ++p) {
    ku1 = double((rng() >> 11) + 1) * 0x1.0p-53;
    ku2 = double((rng() >> 11) + 1) * 0x1.0p-53;
  }
  const double kr = std::sqrt(-2.0 * std::log(ku1)), kang = 2.0 * 3.14159265358979323846 * ku2;
  EXPECT_EQ(a.k[0], static_cast<float>(kr * std::cos(kang)));
  EXPECT_EQ(a.k[1], static_cast<float>(kr * std::sin(kang)));
}

// The AVX2 and baseline kernels too (ROPESCOPE_CPU_ISA caps the run-time choice).
TEST(Attention, EveryInstructionSetMatchesTheReference) {
  const AttentionProblem p = problemFor(
      {"t300,i20x20,t300", "circle", "mrope", 32, 0, true, QkSourceSpec::Kind::Random, 1});
  const std::size_t n = p.qk.tokens;
  const auto ref = referenceAttention(p, 0, AttentionValue::Softmax);
  for (const std::string isa : {"baseline", "avx2", "avx512"}) {
    // avx512 is the uncapped choice; the backend names the copy it took. A CPU without this
    // copy falls back to a lower one, which the loop has run already: said, not run again.
    if (isa != "avx512") setenv("ROPESCOPE_CPU_ISA", isa.c_str(), 1);
    auto cpu = makeCpuAttentionBackend(2);
    unsetenv("ROPESCOPE_CPU_ISA");
    const std::string description = cpu->description();
    if (description.size() < isa.size() ||
        description.compare(description.size() - isa.size(), isa.size(), isa) != 0) {
      std::printf(
          "[ isa ] this CPU has no %s: that copy of the attention kernels is not run here "
          "(the backend took: %s)\n",
          isa.c_str(), description.c_str());
      continue;
    }
    cpu->load(p);
    std::vector<float> got(n * n);
    cpu->rows(0, 0, n, AttentionValue::Softmax, got.data());
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
      worst = std::max(worst, rowError(&got[i * n], &ref[i * n], n));
    EXPECT_LT(worst, 1e-4) << cpu->description();
    const RowStats st = cpu->rowStats(0, 0, n);
    for (std::size_t i = 0; i < n; i += 37) {
      double pmax = 0;
      for (std::size_t j = 0; j < n; ++j) pmax = std::max(pmax, ref[i * n + j]);
      EXPECT_NEAR(1.0 / st.sumExp[i], pmax, 1e-5 * pmax) << cpu->description();
    }
  }
}

// Each logit is q'_i . k'_j as one chain of multiply-adds over the head dims in order, from the
// rotated q and k (rotateRows): fused on the AVX-512 and AVX2 copies, a product then a sum on
// the baseline. Checked bit for bit against that chain by hand, for every copy, with token
// counts that end inside a key panel and inside a group of rows, grouped query heads, causal
// and not, through rows, rowsAndStats and rowStats.
TEST(Attention, EveryLogitIsOneMultiplyAddChainInEveryCopy) {
  for (const bool causal : {false, true}) {
    Scene s = attentionCaseScene(
        {"t13,i5x6,t34", "mrope", "mrope", 24, 0, causal, QkSourceSpec::Kind::Random, 1});
    const PositionIds ids = findDesign("mrope").ids(s.layout, ParameterSet{});
    const std::size_t n = ids.size(), d = 24;
    ASSERT_EQ(n, 77u);
    const AttentionProblem p = makeAttentionProblem(randomQk(4, 2, n, int(d), 11), ids.ids,
                                                    resolvePairs(s.frequency), causal);
    std::vector<float> q(4 * n * d), k(2 * n * d);
    rotateRows(p, true, 0, 4 * n, q.data());
    rotateRows(p, false, 0, 2 * n, k.data());
    for (const std::string isa : {"baseline", "avx2", "avx512"}) {
      if (isa != "avx512") setenv("ROPESCOPE_CPU_ISA", isa.c_str(), 1);
      auto cpu = makeCpuAttentionBackend(2);
      unsetenv("ROPESCOPE_CPU_ISA");
      const std::string description = cpu->description();
      if (description.compare(description.size() - isa.size(), isa.size(), isa) != 0) {
        std::printf("[ isa ] this CPU has no %s: that copy is not run here (took: %s)\n",
                    isa.c_str(), description.c_str());
        continue;
      }
      const bool fused = isa != "baseline";
      cpu->load(p);
      for (int h = 0; h < 4; ++h) {
        std::vector<float> rows(n * n), once(n * n);
        cpu->rows(h, 0, n, AttentionValue::Logits, rows.data());
        const RowStats st = cpu->rowsAndStats(h, 0, n, AttentionValue::Logits, once.data());
        const RowStats online = cpu->rowStats(h, 0, n);
        for (std::size_t i = 0; i < n; ++i) {
          float rowMax = -std::numeric_limits<float>::infinity();
          for (std::size_t j = 0; j < n; ++j) {
            const float* a = &q[(std::size_t(h) * n + i) * d];
            const float* b = &k[(std::size_t(h / 2) * n + j) * d];
            float acc = 0.0f;
            for (std::size_t x = 0; x < d; ++x) {
              if (fused) {
                acc = std::fma(a[x], b[x], acc);
              } else {
                volatile float product = a[x] * b[x];
                acc = acc + product;
              }
            }
            const float want = causal && j > i ? -std::numeric_limits<float>::infinity() : acc;
            rowMax = std::max(rowMax, want);
            ASSERT_EQ(rows[i * n + j], want)
                << isa << " head " << h << " row " << i << " key " << j;
            ASSERT_EQ(once[i * n + j], want)
                << isa << " head " << h << " row " << i << " key " << j;
          }
          EXPECT_EQ(st.max[i], rowMax) << isa << " head " << h << " row " << i;
          EXPECT_EQ(online.max[i], rowMax) << isa << " head " << h << " row " << i;
        }
      }
    }
  }
}

TEST(Attention, GroupedQueryHeadsReadTheirKvHead) {
  Scene s = attentionCaseScene(
      {"t6,i3x3,t3", "mrope", "mrope", 16, 0, true, QkSourceSpec::Kind::Random, 1});
  const PositionIds ids = findDesign("mrope").ids(s.layout, ParameterSet{});
  const AttentionProblem p = makeAttentionProblem(randomQk(4, 2, ids.size(), 16, 5), ids.ids,
                                                  resolvePairs(s.frequency), true);
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  const std::size_t n = ids.size();
  for (int h = 0; h < 4; ++h) {
    const auto ref = referenceAttention(p, h, AttentionValue::Softmax);
    std::vector<float> got(n * n);
    cpu->rows(h, 0, n, AttentionValue::Softmax, got.data());
    for (std::size_t i = 0; i < n; ++i) EXPECT_LT(rowError(&got[i * n], &ref[i * n], n), 1e-4);
  }
}

TEST(Attention, ThreadCountDoesNotChangeResults) {
  const AttentionProblem p = problemFor(
      {"t300,i20x20,t300", "circle", "mrope", 32, 0, true, QkSourceSpec::Kind::Random, 1});
  auto one = makeCpuAttentionBackend(1), three = makeCpuAttentionBackend(3);
  one->load(p);
  three->load(p);
  const RowStats a = one->rowStats(0, 10, 900), b = three->rowStats(0, 10, 900);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.sumExp, b.sumExp);
  EXPECT_EQ(a.entropy, b.entropy);
  const std::size_t nb = (p.qk.tokens + 63) / 64;
  std::vector<float> pa(nb * nb), pb(nb * nb);
  one->pooled(0, 64, AttentionValue::Softmax, pa.data());
  three->pooled(0, 64, AttentionValue::Softmax, pb.data());
  EXPECT_EQ(pa, pb);
}

// The one-pass kernel works in blocks of rows handed to threads: a range that starts and ends
// inside blocks gives the rows and statistics of the two-request path, for every thread count
// bit for bit.
TEST(Attention, OnePassRowsAndStatsMatchTheTwoRequests) {
  const AttentionProblem p = problemFor(
      {"t300,i20x20,t300", "circle", "mrope", 32, 0, true, QkSourceSpec::Kind::Random, 1});
  const std::size_t n = p.qk.tokens, b = 10, e = 900;
  auto one = makeCpuAttentionBackend(1), three = makeCpuAttentionBackend(3);
  one->load(p);
  three->load(p);
  for (const AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
    std::vector<float> a((e - b) * n, 7.0f), c((e - b) * n, 7.0f), two((e - b) * n);
    const RowStats sa = one->rowsAndStats(0, b, e, v, a.data());
    const RowStats sc = three->rowsAndStats(0, b, e, v, c.data());
    EXPECT_EQ(a, c);
    EXPECT_EQ(sa.max, sc.max);
    EXPECT_EQ(sa.sumExp, sc.sumExp);
    EXPECT_EQ(sa.entropy, sc.entropy);
    const RowStats st = one->rowStats(0, b, e);
    one->rows(0, b, e, v, two.data());
    // Every pass computes a logit by the same chain of multiply-adds: the logits and row maxima
    // agree bit for bit; the softmax and sums come from differently vectorised exp passes.
    if (v == AttentionValue::Logits) EXPECT_EQ(a, two);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (std::isinf(two[i])) {
        EXPECT_EQ(a[i], two[i]) << i;
        continue;
      }
      EXPECT_NEAR(a[i], two[i], 1e-6 * std::max(1.0f, std::abs(two[i]))) << i;
    }
    EXPECT_EQ(sa.max, st.max);
    for (std::size_t i = 0; i < e - b; ++i) {
      EXPECT_NEAR(sa.sumExp[i], st.sumExp[i], 1e-5 * st.sumExp[i]) << i;
      EXPECT_NEAR(sa.entropy[i], st.entropy[i], 1e-5 * std::max(1.0f, st.entropy[i])) << i;
    }
  }
}

TEST(Attention, SubrangesMatchTheFullMatrix) {
  const AttentionProblem p = problemFor(
      {"t300,i20x20,t300", "mrope", "mrope", 32, 0, true, QkSourceSpec::Kind::Random, 1});
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  const std::size_t n = p.qk.tokens;
  std::vector<float> all(n * n), part(100 * n);
  cpu->rows(0, 0, n, AttentionValue::Logits, all.data());
  cpu->rows(0, 250, 350, AttentionValue::Logits, part.data());
  for (std::size_t i = 0; i < 100 * n; ++i) ASSERT_EQ(part[i], all[250 * n + i]) << i;
  cpu->rows(0, 0, n, AttentionValue::Softmax, all.data());
  cpu->rows(0, 250, 350, AttentionValue::Softmax, part.data());
  // The softmax is not bit-equal: a row's alignment in the buffer changes how Eigen's
  // vectorised sum splits it.
  for (std::size_t i = 0; i < 100 * n; ++i)
    EXPECT_NEAR(part[i], all[250 * n + i], 1e-6 * all[250 * n + i]);
  const RowStats full = cpu->rowStats(0, 0, n), sub = cpu->rowStats(0, 255, 520);
  for (std::size_t i = 0; i < sub.max.size(); ++i) {
    EXPECT_NEAR(sub.max[i], full.max[255 + i], 1e-6 * std::abs(full.max[255 + i]));
    EXPECT_NEAR(sub.sumExp[i], full.sumExp[255 + i], 1e-6 * full.sumExp[255 + i]);
  }
}

// N = 32768, d = 128 with only a few rows asked for: the streaming pass needs no N x N buffer.
TEST(Attention, LongSequenceStreamsRowsWithoutFullMatrix) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t16384,i64x128,t8192");
  s.design = "mrope";
  s.designParams = ParameterSet{};
  s.frequency.plan = "mrope";
  s.frequency.sections.clear();
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  const AttentionProblem p = makeAttentionProblem(s, src, true);
  ASSERT_EQ(p.qk.tokens, 32768u);
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  const RowStats st = cpu->rowStats(0, 32760, 32768);
  std::vector<float> rows(8 * 32768);
  cpu->rows(0, 32760, 32768, AttentionValue::Softmax, rows.data());
  for (std::size_t i = 0; i < 8; ++i) {
    double sum = 0, pmax = 0;
    for (std::size_t j = 0; j < 32768; ++j) {
      sum += rows[i * 32768 + j];
      pmax = std::max(pmax, double(rows[i * 32768 + j]));
    }
    EXPECT_NEAR(sum, 1.0, 1e-4);
    EXPECT_NEAR(pmax, 1.0 / st.sumExp[i], 1e-5 * pmax);
    EXPECT_GT(st.entropy[i], 0.0f);
  }
}

TEST(Attention, BadRequestsAreInputErrors) {
  const AttentionProblem p =
      problemFor({"t5,i3x3,t2", "mrope", "mrope", 16, 0, false, QkSourceSpec::Kind::Random, 2});
  auto cpu = makeCpuAttentionBackend(1);
  EXPECT_THROW(cpu->rowStats(0, 0, 1), InputError);  // nothing loaded
  cpu->load(p);
  float out[64];
  EXPECT_THROW(cpu->rows(2, 0, 1, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(cpu->rows(0, 5, 5, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(cpu->rows(0, 0, 17, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(cpu->pooled(0, 0, AttentionValue::Logits, out), InputError);
  EXPECT_THROW(parseBackendChoice("fast"), InputError);
  EXPECT_EQ(parseBackendChoice("gpu"), BackendChoice::Gpu);
  AttentionProblem bad = p;
  bad.qk.q.pop_back();
  EXPECT_THROW(cpu->load(bad), InputError);
  EXPECT_THROW(randomQk(3, 2, 10, 16, 0), InputError);       // 3 q heads over 2 kv heads
  EXPECT_THROW(identicalQk(256, 262144, 1024), InputError);  // over the value cap
}

TEST(Attention, NpyShapeMismatchesNameTheFile) {
  const auto dir = tempDir();
  const std::vector<float> v(3 * 11 * 16, 0.5f);
  writeNpy((dir / "q2.npy").string(), v.data(), 2 * 11 * 16, {2, 11, 16});
  writeNpy((dir / "k1.npy").string(), v.data(), 11 * 16, {11, 16});
  writeNpy((dir / "k3.npy").string(), v.data(), 3 * 11 * 8, {3, 11, 8});
  writeNpy((dir / "k3h.npy").string(), v.data(), 3 * 11 * 16, {3, 11, 16});
  writeNpy((dir / "flat.npy").string(), v.data(), 176, {176});
  const auto expectError = [](const std::function<void()>& f, const std::string& mention) {
    try {
      f();
      ADD_FAILURE() << "no error, expected " << mention;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  };
  const std::string q = (dir / "q2.npy").string(), k = (dir / "k1.npy").string();
  EXPECT_NO_THROW(loadQkNpy(q, k, 11, 16));
  expectError([&] { loadQkNpy(q, k, 12, 16); }, "has 11 tokens");
  expectError([&] { loadQkNpy(q, k, 11, 32); }, "head dim 16");
  expectError([&] { loadQkNpy((dir / "flat.npy").string(), k, 11, 16); }, "has shape (176)");
  expectError([&] { loadQkNpy(k, (dir / "k3.npy").string(), 11, 16); }, "k file");
  expectError([&] { loadQkNpy(q, (dir / "k3h.npy").string(), 11, 16); }, "not a multiple");
  std::vector<float> nan(11 * 16, 1.0f);
  nan[17] = std::numeric_limits<float>::quiet_NaN();
  writeNpy((dir / "nan.npy").string(), nan.data(), nan.size(), {11, 16});
  expectError([&] { loadQkNpy((dir / "nan.npy").string(), k, 11, 16); }, "flat index 17");
}

}  // namespace
}  // namespace ropescope
