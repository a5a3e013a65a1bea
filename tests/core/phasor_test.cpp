// The phasor picture against the core's decay bound and bias, and against a written-out brute
// force with std::complex (S_j = Σ_{k<j} e^{iθ_k δ_axis(k)}, U = (1/n) Σ_{j=1..n} |S_j|).
#include <gtest/gtest.h>

#include <complex>
#include <numbers>
#include <random>

#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/metrics.h"
#include "ropescope/phasor.h"

using namespace ropescope;

namespace {

constexpr double kPhasorPi = std::numbers::pi;

PairTable table(const char* plan, double base, int headDim = 128) {
  FrequencySpec f;
  f.plan = plan;
  f.rotary = {headDim, 0, base};
  return resolvePairs(f);
}

// θ_k = base^(−2k/d) written out, and the axis of each pair given explicitly.
struct Brute {
  std::vector<std::complex<double>> partial;  // S_1..S_n
  double bound = 0.0;
  double bias = 0.0;
};

Brute brute(const std::vector<int>& axisOf, double base, int d, const Id3& delta) {
  Brute b;
  std::complex<double> s = 0.0;
  const int n = d / 2;
  for (int k = 0; k < n; ++k) {
    const double theta = std::pow(base, -2.0 * k / d);
    const double phi = axisOf[k] < 0 ? 0.0 : theta * delta[axisOf[k]];
    s += std::polar(1.0, phi);
    b.partial.push_back(s);
    b.bound += std::abs(s);
    b.bias += std::cos(phi);
  }
  b.bound /= n;
  b.bias /= n;
  return b;
}

}  // namespace

TEST(Phasor, MeanOfPartialSumLengthsIsTheDecayBound) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-300, 300);
  for (const char* plan : {"vanilla", "mrope", "interleaved", "videorope", "hope"}) {
    const PairTable p = table(plan, 1e6);
    for (int i = 0; i < 40; ++i) {
      const Id3 d{u(rng), u(rng), u(rng)};
      const Phasor ph = computePhasor(p, d);
      EXPECT_EQ(ph.decayBound, decayBound(p, d)) << plan;
      EXPECT_NEAR(ph.bias, positionalBias(p, d), 1e-12) << plan;
      double mean = 0.0;
      for (const PhasorPair& q : ph.pairs) mean += q.sumLength;
      EXPECT_NEAR(mean / p.size(), ph.decayBound, 1e-12);
    }
  }
}

TEST(Phasor, VanillaMatchesTheWrittenOutSum) {
  // d = 128, base 1e4, all pairs on one axis: U(10), U(200) of docs/math.md#decay-bound.
  const PairTable p = table("vanilla", 1e4);
  const std::vector<int> axisOf(64, 0);
  for (double dist : {0.0, 1.0, 10.0, 37.5, 200.0}) {
    const Id3 d{dist, dist, dist};
    const Phasor ph = computePhasor(p, d);
    const Brute b = brute(axisOf, 1e4, 128, d);
    ASSERT_EQ(ph.pairs.size(), b.partial.size());
    for (std::size_t k = 0; k < b.partial.size(); ++k) {
      EXPECT_NEAR(ph.pairs[k].sumRe, b.partial[k].real(), 1e-9);
      EXPECT_NEAR(ph.pairs[k].sumIm, b.partial[k].imag(), 1e-9);
      EXPECT_NEAR(ph.pairs[k].sumLength, std::abs(b.partial[k]), 1e-9);
      EXPECT_NEAR(ph.pairs[k].phase, std::pow(1e4, -2.0 * k / 128) * dist, 1e-9);
    }
    EXPECT_NEAR(ph.decayBound, b.bound, 1e-9);
    EXPECT_NEAR(ph.bias, b.bias, 1e-12);
  }
  EXPECT_NEAR(computePhasor(p, {10, 10, 10}).decayBound, 17.954137137085, 1e-9);
  EXPECT_NEAR(computePhasor(p, {200, 200, 200}).decayBound, 7.244770748511, 1e-9);
  // δ = 0: every arrow points along +x, S_j = j, U = (n+1)/2, b = 1.
  const Phasor zero = computePhasor(p, {0, 0, 0});
  EXPECT_DOUBLE_EQ(zero.pairs[63].sumRe, 64.0);
  EXPECT_DOUBLE_EQ(zero.decayBound, 32.5);
  EXPECT_DOUBLE_EQ(zero.bias, 1.0);
}

TEST(Phasor, MropeAxesFollowTheSectionsAndWrap) {
  // Qwen2-VL's default sections for 64 pairs: 16 t, 24 h, 24 w, in that order.
  const PairTable p = table("mrope", 1e6);
  std::vector<int> axisOf(64);
  for (int k = 0; k < 64; ++k) axisOf[k] = k < 16 ? 0 : (k < 40 ? 1 : 2);
  const Id3 d{2, 5, -9};
  const Phasor ph = computePhasor(p, d);
  const Brute b = brute(axisOf, 1e6, 128, d);
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(static_cast<int>(ph.pairs[k].axis), axisOf[k]) << k;
    EXPECT_NEAR(ph.pairs[k].sumRe, b.partial[k].real(), 1e-9);
    EXPECT_NEAR(ph.pairs[k].sumIm, b.partial[k].imag(), 1e-9);
    EXPECT_GT(ph.pairs[k].wrapped, -kPhasorPi);
    EXPECT_LE(ph.pairs[k].wrapped, kPhasorPi);
    // The wrapped angle differs from the unwrapped one by whole turns.
    const double turns = (ph.pairs[k].phase - ph.pairs[k].wrapped) / (2 * kPhasorPi);
    EXPECT_NEAR(turns, std::round(turns), 1e-9);
    EXPECT_NEAR(ph.pairs[k].re, std::cos(ph.pairs[k].wrapped), 1e-12);
    EXPECT_NEAR(ph.pairs[k].im, std::sin(ph.pairs[k].wrapped), 1e-12);
  }
  EXPECT_EQ(ph.axisPairs[0], 16);
  EXPECT_EQ(ph.axisPairs[1], 24);
  EXPECT_EQ(ph.axisPairs[2], 24);
  EXPECT_NEAR(ph.endRe, b.partial.back().real(), 1e-9);
  EXPECT_NEAR(ph.decayBound, b.bound, 1e-9);
}

TEST(Phasor, EqualDistancesNeedNotGiveEqualBiasUnderSections) {
  // Three displacements 3 apart along h, along w, and (3,3,3) along the text diagonal: under
  // M-RoPE the h and w sections hold different frequencies, so the biases differ.
  const PairTable p = table("mrope", 1e6);
  const double bh = computePhasor(p, {0, 3, 0}).bias;
  const double bw = computePhasor(p, {0, 0, 3}).bias;
  const double bthw = computePhasor(p, {3, 3, 3}).bias;
  // The w section holds the lower frequencies (pairs 40..63, h has 16..39): moving along w turns
  // its pairs less, so its bias stays nearer 1. Both against the written-out sums.
  std::vector<int> axisOf(64);
  for (int k = 0; k < 64; ++k) axisOf[k] = k < 16 ? 0 : (k < 40 ? 1 : 2);
  EXPECT_NEAR(bh, brute(axisOf, 1e6, 128, {0, 3, 0}).bias, 1e-12);
  EXPECT_NEAR(bw, brute(axisOf, 1e6, 128, {0, 0, 3}).bias, 1e-12);
  EXPECT_GT(bw - bh, 1e-4);
  EXPECT_GT(bh - bthw, 1e-2);  // moving all three axes turns every pair
  // Under the 1-D vanilla plan the same moves along one axis give one bias.
  const PairTable v = table("vanilla", 1e6);
  EXPECT_NEAR(computePhasor(v, {3, 0, 0}).bias, computePhasor(v, {3, 3, 3}).bias, 1e-15);
  // Per-axis means recombine into the bias.
  const Phasor ph = computePhasor(p, {1, 4, 2});
  double recombined = 0.0;
  for (int a = 0; a < 3; ++a) recombined += ph.axisBias[a] * ph.axisPairs[a];
  EXPECT_NEAR(recombined / 64.0, ph.bias, 1e-12);
}

TEST(Phasor, BiasAlongAxesMatchesTheWrittenOutSums) {
  const PairTable p = table("mrope", 1e6);
  std::vector<int> axisOf(64);
  for (int k = 0; k < 64; ++k) axisOf[k] = k < 16 ? 0 : (k < 40 ? 1 : 2);
  for (double d : {0.0, 3.0, 100.0}) {
    const AxisBias b = biasAlongAxes(p, d);
    EXPECT_NEAR(b.t, brute(axisOf, 1e6, 128, {d, 0, 0}).bias, 1e-12);
    EXPECT_NEAR(b.h, brute(axisOf, 1e6, 128, {0, d, 0}).bias, 1e-12);
    EXPECT_NEAR(b.w, brute(axisOf, 1e6, 128, {0, 0, d}).bias, 1e-12);
    EXPECT_NEAR(b.text, brute(axisOf, 1e6, 128, {d, d, d}).bias, 1e-12);
  }
}

TEST(Phasor, WrapPhaseRange) {
  EXPECT_DOUBLE_EQ(wrapPhase(kPhasorPi), kPhasorPi);
  EXPECT_DOUBLE_EQ(wrapPhase(-kPhasorPi), kPhasorPi);
  EXPECT_NEAR(wrapPhase(3 * kPhasorPi + 0.25), -kPhasorPi + 0.25, 1e-12);
  EXPECT_NEAR(wrapPhase(-0.5), -0.5, 1e-15);
  EXPECT_NEAR(wrapPhase(100.0), 100.0 - 32 * kPhasorPi, 1e-12);
}

TEST(Phasor, DirectionNames) {
  EXPECT_EQ(directionDisplacement("h", 4), (Id3{0, 4, 0}));
  EXPECT_EQ(directionDisplacement("thw", 2), (Id3{2, 2, 2}));
  try {
    directionDisplacement("x", 1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t, h, w or thw"), std::string::npos);
  }
}
