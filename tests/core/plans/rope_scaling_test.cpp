// Rope scaling composed with the frequency plans: transformers scales inv_freq over all
// pairs in pair order and only then hands pairs to t, h, w. Properties of each type against
// independent formulations, and hostile scalings refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/rope_scaling.h"

namespace ropescope {
namespace {

FrequencySpec qwen25(const std::string& plan = "mrope", std::vector<int> sections = {16, 24, 24}) {
  FrequencySpec s;
  s.plan = plan;
  s.sections = std::move(sections);
  s.rotary.headDim = 128;
  s.rotary.base = 1e6;
  return s;
}

RopeScaling yarn(double factor, double original) {
  RopeScaling r;
  r.type = "yarn";
  r.params.set("factor", factor);
  r.params.set("original_max_position_embeddings", original);
  return r;
}

// The acceptance example: Qwen2.5-VL, chunked [16,24,24], YaRN factor 4 from 32768.
TEST(RopeScaling, QwenYarnChunkedSectionsPerAxis) {
  FrequencySpec s = qwen25();
  s.rope = yarn(4, 32768);
  const PairTable t = resolvePairs(s);
  ASSERT_EQ(t.size(), 64);
  for (int p = 0; p < 64; ++p) {
    const PairScaling want = p <= 23  ? PairScaling::Unchanged
                             : p < 40 ? PairScaling::Ramped
                                      : PairScaling::Scaled;
    EXPECT_EQ(t.scaling[p], want) << p;
  }
  // Unchanged pairs keep the float32 default exactly; scaled ones are exactly a quarter of it.
  FrequencySpec plain = qwen25();
  plain.rope.type = "default";
  const PairTable d = resolvePairs(plain);
  for (int p = 0; p < 64; ++p) {
    if (p <= 23) EXPECT_EQ(t.invFreq32[p], d.invFreq32[p]) << p;
    if (p >= 40) EXPECT_EQ(t.invFreq32[p], d.invFreq32[p] / 4.0f) << p;
    if (p > 23 && p < 40) {
      EXPECT_LT(t.theta[p], d.theta[p]) << p;
      EXPECT_GT(t.theta[p], d.theta[p] / 4) << p;
    }
  }
  const ScalingCounts c = scalingCounts(t);
  const auto row = [&](Axis a) { return c[static_cast<std::size_t>(a)]; };
  EXPECT_EQ(row(Axis::T)[0], 16);
  EXPECT_EQ(row(Axis::T)[1], 0);
  EXPECT_EQ(row(Axis::T)[2], 0);
  EXPECT_EQ(row(Axis::H)[0], 8);
  EXPECT_EQ(row(Axis::H)[1], 16);
  EXPECT_EQ(row(Axis::H)[2], 0);
  EXPECT_EQ(row(Axis::W)[0], 0);
  EXPECT_EQ(row(Axis::W)[1], 0);
  EXPECT_EQ(row(Axis::W)[2], 24);
  EXPECT_NEAR(t.attentionFactor, 1.1386, 5e-5);
  EXPECT_EQ(t.attentionFactor, 0.1 * std::log(4.0) + 1.0);
  EXPECT_NEAR(t.attentionFactor * t.attentionFactor, 1.2965, 5e-5);
  // The unscaled theta is the plan's, unchanged: pair 63 = 1e6^(-126/128) = 1.24e-6.
  EXPECT_EQ(t.thetaUnscaled[63], pairFrequency(1e6, 63, 128));
  EXPECT_NEAR(t.theta[63] / t.thetaUnscaled[63], 0.25, 1e-12);
}

// Interleaved (Qwen3-VL [24,20,20]): the same pair-order scaling, every axis gets some of each.
TEST(RopeScaling, InterleavedSectionsMixEveryAxis) {
  FrequencySpec s = qwen25("interleaved", {24, 20, 20});
  s.rope = yarn(4, 32768);
  const PairTable t = resolvePairs(s);
  FrequencySpec chunked = qwen25();
  chunked.rope = s.rope;
  const PairTable c = resolvePairs(chunked);
  EXPECT_EQ(t.invFreq32, c.invFreq32);  // blind to axes
  const ScalingCounts n = scalingCounts(t);
  for (Axis a : {Axis::T, Axis::H, Axis::W})
    for (int k = 0; k < 3; ++k) EXPECT_GT(n[static_cast<std::size_t>(a)][k], 0) << axisName(a);
}

TEST(RopeScaling, NoScalingLeavesTheTableAsBefore) {
  const PairTable t = resolvePairs(qwen25());
  EXPECT_TRUE(t.ropeType.empty());
  EXPECT_TRUE(t.invFreq32.empty());
  EXPECT_EQ(t.attentionFactor, 1.0);
  EXPECT_EQ(t.theta[63], pairFrequency(1e6, 63, 128));
}

TEST(RopeScaling, LinearIsThetaOverFactor) {
  FrequencySpec s = qwen25("vanilla", {});
  s.rope.type = "linear";
  s.rope.params.set("factor", 8);
  const PairTable t = resolvePairs(s);
  for (int p = 0; p < t.size(); ++p) {
    const float plain = 1.0f / std::pow(1e6f, static_cast<float>(2 * p) / 128.0f);
    EXPECT_EQ(t.invFreq32[p], plain / 8.0f) << p;
    EXPECT_NEAR(t.theta[p], t.thetaUnscaled[p] / 8, t.thetaUnscaled[p] * 1e-14) << p;
    EXPECT_EQ(t.scaling[p], PairScaling::Scaled);
  }
  EXPECT_EQ(t.attentionFactor, 1.0);
}

TEST(RopeScaling, YarnWithFactorOneIsTheDefault) {
  FrequencySpec s = qwen25();
  s.rope = yarn(1, 32768);
  FrequencySpec d = qwen25();
  d.rope.type = "default";
  const PairTable a = resolvePairs(s), b = resolvePairs(d);
  EXPECT_EQ(a.invFreq32, b.invFreq32);
  EXPECT_EQ(a.attentionFactor, 1.0);
}

// llama3 (Llama 3.1: theta 5e5, factor 8, 1 / 4, original 8192): wavelengths below 2048 kept,
// above 8192 divided by 8, each pair classified by its own wavelength.
TEST(RopeScaling, Llama3KeepsShortWavelengthsAndDividesLongOnes) {
  FrequencySpec s = qwen25("vanilla", {});
  s.rotary.base = 500000;
  s.rope.type = "llama3";
  s.rope.params.set("factor", 8);
  s.rope.params.set("low_freq_factor", 1);
  s.rope.params.set("high_freq_factor", 4);
  s.rope.params.set("original_max_position_embeddings", 8192);
  const PairTable t = resolvePairs(s);
  int kept = 0, divided = 0, smoothed = 0;
  for (int p = 0; p < t.size(); ++p) {
    const double wavelength = 2 * std::numbers::pi / t.thetaUnscaled[p];
    if (wavelength < 2048) {
      EXPECT_EQ(t.scaling[p], PairScaling::Unchanged) << p;
      EXPECT_NEAR(t.theta[p], t.thetaUnscaled[p], t.thetaUnscaled[p] * 1e-14);
      ++kept;
    } else if (wavelength > 8192) {
      EXPECT_EQ(t.scaling[p], PairScaling::Scaled) << p;
      EXPECT_NEAR(t.theta[p], t.thetaUnscaled[p] / 8, t.thetaUnscaled[p] * 1e-14);
      ++divided;
    } else {
      EXPECT_EQ(t.scaling[p], PairScaling::Ramped) << p;
      EXPECT_LT(t.theta[p], t.thetaUnscaled[p]);
      EXPECT_GT(t.theta[p], t.thetaUnscaled[p] / 8);
      ++smoothed;
    }
  }
  // The oracle's README: pairs 0..28 unchanged, 29..34 smoothed, 35..63 divided by 8.
  EXPECT_EQ(kept, 29);
  EXPECT_EQ(smoothed, 6);
  EXPECT_EQ(divided, 29);
}

// proportional (Gemma 4: head dim 512, share 0.25): 64 pairs on the full-head ladder, 192 zero.
TEST(RopeScaling, ProportionalPairsPastTheCutAreZero) {
  FrequencySpec s = qwen25("vanilla", {});
  s.rotary.headDim = 512;
  s.rope.type = "proportional";
  s.rope.params.set("partial_rotary_factor", 0.25);
  const PairTable t = resolvePairs(s);
  ASSERT_EQ(t.size(), 256);
  for (int p = 0; p < 256; ++p) {
    if (p < 64) {
      EXPECT_EQ(t.scaling[p], PairScaling::Unchanged) << p;
      EXPECT_NEAR(t.theta[p], pairFrequency(1e6, p, 512), pairFrequency(1e6, p, 512) * 1e-14);
    } else {
      EXPECT_EQ(t.scaling[p], PairScaling::NotRotated) << p;
      EXPECT_EQ(t.theta[p], 0.0) << p;
      EXPECT_EQ(t.invFreq32[p], 0.0f) << p;
    }
  }
  // The slowest rotated wavelength is about 188 tokens: 2 pi * 1e6^(126/512) = 188.25.
  EXPECT_NEAR(2 * std::numbers::pi / t.theta[63], 188.25, 0.005);
}

TEST(RopeScaling, DynamicSwitchesOnTheLargestPositionId) {
  FrequencySpec s = qwen25("vanilla", {});
  s.rotary.base = 10000;
  s.rope.type = "dynamic";
  s.rope.params.set("factor", 2);
  s.rope.params.set("max_position_embeddings", 4096);
  const PairTable init = resolvePairs(s);
  s.rope.maxPositionId = 4095;  // seq_len 4096: not past the switch
  const PairTable at = resolvePairs(s);
  s.rope.maxPositionId = 4096;
  const PairTable past = resolvePairs(s);
  EXPECT_EQ(init.invFreq32, at.invFreq32);
  EXPECT_FALSE(at.switched);
  EXPECT_TRUE(past.switched);
  EXPECT_EQ(past.switchLength, 4096);
  EXPECT_EQ(past.scaling[0], PairScaling::Unchanged);  // theta 1 at any base
  EXPECT_EQ(past.scaling[63], PairScaling::Scaled);
  EXPECT_LT(past.theta[63], init.theta[63]);
}

// Every refusal is one line naming the key and what it accepts.
void expectRefused(const FrequencySpec& s, const std::string& field, const std::string& words) {
  try {
    resolvePairs(s);
    ADD_FAILURE() << "accepted; expected a refusal naming " << field;
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.field(), field) << m;
    EXPECT_NE(m.find(words), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(RopeScaling, HostileScalingsAreRefusedInOneLine) {
  FrequencySpec s = qwen25();
  s.rope = yarn(0, 32768);
  expectRefused(s, "factor", "factor must be in [1, 1000000] (got 0)");
  s.rope = yarn(-2, 32768);
  expectRefused(s, "factor", "factor must be in [1, 1000000]");
  s.rope = yarn(std::numeric_limits<double>::quiet_NaN(), 32768);
  expectRefused(s, "factor", "factor must be a finite number");
  s.rope = yarn(4, 32768);
  s.rope.params.set("beta_fast", 1);
  s.rope.params.set("beta_slow", 1);
  expectRefused(s, "beta_fast", "beta_fast must be greater than beta_slow");
  s.rope = yarn(4, 32768);
  s.rope.params.set("scale", 2);
  expectRefused(s, "scale",
                "rope type yarn has no parameter \"scale\" (accepted: factor, "
                "original_max_position_embeddings, beta_fast");
  s.rope = RopeScaling{};
  s.rope.type = "yarn";
  s.rope.params.set("factor", 4);
  expectRefused(s, "original_max_position_embeddings", "needs original_max_position_embeddings");
  s.rope.type = "ntk-by-parts";
  expectRefused(s, "rope",
                "unknown rope type \"ntk-by-parts\" (accepted: default, linear, "
                "dynamic, yarn, longrope, llama3, proportional)");
  // longrope: one factor per pair (64 here).
  s.rope = RopeScaling{};
  s.rope.type = "longrope";
  s.rope.params.set("original_max_position_embeddings", 4096);
  s.rope.params.set("factor", 32);
  s.rope.shortFactor.assign(64, 1.0);
  s.rope.longFactor.assign(63, 2.0);
  expectRefused(s, "long_factor", "long_factor must have one factor per pair, 64");
  s.rope.longFactor.assign(64, 2.0);
  s.rope.shortFactor[5] = -1;
  expectRefused(s, "short_factor", "short_factor[5] must be a finite number in (0, 1e12]");
  // llama3: high_freq_factor above low_freq_factor.
  s.rope = RopeScaling{};
  s.rope.type = "llama3";
  for (const char* k : {"factor", "low_freq_factor", "high_freq_factor"}) s.rope.params.set(k, 2);
  s.rope.params.set("original_max_position_embeddings", 8192);
  expectRefused(s, "high_freq_factor", "high_freq_factor must be greater than low_freq_factor");
  // proportional wants the full head dim.
  s.rope = RopeScaling{};
  s.rope.type = "proportional";
  s.rotary.rotaryDim = 64;
  s.plan = "vanilla";
  s.sections.clear();
  expectRefused(s, "rotary_dim", "full head dim");
}

TEST(RopeScaling, EveryTypeDeclaresItsParametersOnce) {
  for (const RopeType* t : allRopeTypes()) {
    std::set<std::string> keys;
    for (const ParameterSpec& p : t->parameters()) {
      EXPECT_TRUE(keys.insert(p.key).second) << t->name() << " " << p.key;
      EXPECT_FALSE(p.help.empty()) << t->name() << " " << p.key;
      EXPECT_TRUE(p.check(p.defaultValue).empty()) << t->name() << " " << p.key;
    }
    const std::vector<std::string> all = ropeParameterKeys(*t);
    for (const std::string& k : t->requiredKeys())
      EXPECT_NE(std::find(all.begin(), all.end(), k), all.end()) << t->name() << " " << k;
  }
}

}  // namespace
}  // namespace ropescope
