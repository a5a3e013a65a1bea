// Decay bound: U(0) = (n+1)/2, evenness, the rotation recurrence against direct trigonometry
// over long ranges, and the multi-axis sanity row (all axes together = 1-D).
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "test_util.h"

using namespace ropescope;

namespace {
PairTable table(const char* plan, double base, int headDim = 128) {
  FrequencySpec f;
  f.plan = plan;
  f.rotary = {headDim, 0, base};
  return resolvePairs(f);
}
}  // namespace

TEST(Decay, BoundAtZeroIsHalfOfPairsPlusOne) {
  for (int d : {2, 8, 64, 128, 256}) {
    const PairTable p = table("vanilla", 1e4, d);
    EXPECT_DOUBLE_EQ(decayBound(p, {0, 0, 0}), (d / 2 + 1) / 2.0);
  }
  const PairTable m = table("mrope", 1e6);
  EXPECT_DOUBLE_EQ(decayCurve(m, {0, 1, 0}, 0, DecayForm::Subset)[0], (24 + 1) / 2.0);
}

TEST(Decay, BoundIsEvenInDelta) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-500, 500);
  for (const char* plan : {"vanilla", "mrope", "interleaved", "videorope", "hope"}) {
    const PairTable p = table(plan, 1e6);
    for (int i = 0; i < 50; ++i) {
      const Id3 d{u(rng), u(rng), u(rng)};
      EXPECT_NEAR(decayBound(p, d), decayBound(p, {-d[0], -d[1], -d[2]}), 1e-12);
    }
  }
}

TEST(Decay, RoFormerReferenceValues) {
  // docs/math.md#decay-bound (d = 128).
  const PairTable p4 = table("vanilla", 1e4), p6 = table("vanilla", 1e6);
  EXPECT_NEAR(decayBound(p4, {10, 10, 10}), 17.954137137085, 1e-11);
  EXPECT_NEAR(decayBound(p4, {200, 200, 200}), 7.244770748511, 1e-11);
  EXPECT_NEAR(decayBound(p6, {200, 200, 200}), 11.861137986406, 1e-11);
}

TEST(Decay, RecurrenceMatchesDirectTrigonometryOverLongRanges) {
  for (double base : {1e4, 1e6}) {
    const PairTable p = table("vanilla", base);
    const std::vector<double> fast = decayCurve(p, {1, 1, 1}, 100000, DecayForm::Full, 2);
    ASSERT_EQ(fast.size(), 100001u);
    for (int r = 0; r <= 100000; r += 37)
      ASSERT_LE(test::relErr(fast[r], decayBound(p, {1.0 * r, 1.0 * r, 1.0 * r})), 1e-9) << r;
    EXPECT_LE(test::relErr(fast[100000], decayBound(p, {1e5, 1e5, 1e5})), 1e-9);
  }
}

TEST(Decay, TheCurveAtDistanceZeroIsExactlyHalfOfNPlusOne) {
  // At r = 0 every partial sum is the whole number j, and a correctly rounded root of j^2 is j:
  // the vectorised blocks (not only the scalar tail) give exactly 32.5 for 64 pairs.
  for (int maxDistance : {7, 1000, 100000})
    for (int threads : {1, 2}) {
      const auto u =
          decayCurve(table("vanilla", 1e4), {1, 1, 1}, maxDistance, DecayForm::Full, threads);
      EXPECT_EQ(u[0], 32.5) << maxDistance << " " << threads;
    }
  EXPECT_EQ(decayCurve(table("mrope", 1e6), {1, 0, 0}, 4096, DecayForm::Subset)[0], 8.5);
}

TEST(Decay, AllAxesTogetherReproduceTheOneDimensionalCurve) {
  const auto oneD = decayCurve(table("vanilla", 1e4), {1, 1, 1}, 300);
  for (const char* plan : {"mrope", "interleaved", "videorope"}) {
    const auto multi = decayCurve(table(plan, 1e4), {1, 1, 1}, 300);
    for (int r = 0; r <= 300; ++r) EXPECT_NEAR(multi[r], oneD[r], 1e-9 * oneD[r]) << plan;
  }
}

TEST(Decay, SubsetFormNeedsOneAxis) {
  EXPECT_THROW(decayCurve(table("mrope", 1e6), {1, 1, 0}, 10, DecayForm::Subset), InputError);
  EXPECT_THROW(decayCurve(table("mrope", 1e6), {1, 0, 0}, -1), InputError);
}

// (1/n) sum over n = 0 pairs is undefined: a hunt found the subset curve of an axis the plan
// puts no pair on (vanilla: every pair on t) written as zeros. It is refused, naming the axis
// and the pairs per axis; the full form of the same direction is defined (phase 0: U = (n+1)/2).
TEST(Decay, TheSubsetFormOfAnAxisWithoutPairsIsUndefined) {
  const PairTable vanilla = table("vanilla", 1e4);
  try {
    decayCurve(vanilla, {0, 1, 0}, 3, DecayForm::Subset);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "direction");
    EXPECT_NE(std::string(e.what()).find("along h"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t 64, h 0, w 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(decayCurve(vanilla, {0, 1, 0}, 3, DecayForm::Full), std::vector<double>(4, 32.5));
  EXPECT_TRUE(std::isnan(decayBound(subsetPairs(vanilla, Axis::H), {0, 1, 0})));
}

TEST(Decay, ThreadsAndFractionalDirectionsAgreeWithReference) {
  const PairTable p = table("interleaved", 5e6);
  const Id3 dir{0.25, -1.5, 2.0};
  const auto a = decayCurve(p, dir, 5000, DecayForm::Full, 1);
  const auto b = decayCurve(p, dir, 5000, DecayForm::Full, 2);
  const auto ref = decayCurveReference(p, dir, 5000);
  EXPECT_EQ(a, b);
  for (std::size_t r = 0; r < ref.size(); ++r) ASSERT_LE(test::relErr(a[r], ref[r]), 1e-9) << r;
}
