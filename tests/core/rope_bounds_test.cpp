// The discrimination bound and the full-period pairs (rope_bounds.h): closed forms for one pair
// and for vanilla RoPE's critical dimension (Llama 2's 92 of arXiv 2310.05209), and the bound of
// many pairs against a plain loop of cos sums.
#include "ropescope/rope_bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ropescope/frequency_plan.h"

namespace ropescope {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The first m >= 1 with sum cos(m theta_i) < 0, by a plain loop (cos at every step).
long long bruteBound(const std::vector<double>& thetas, long long limit) {
  for (long long m = 1; m <= limit; ++m) {
    double sum = 0.0;
    for (double t : thetas) sum += std::cos(static_cast<double>(m) * t);
    if (sum < 0.0) return m;
  }
  return -1;
}

std::vector<double> vanillaThetas(double base, int rotaryDim) {
  std::vector<double> out;
  for (int p = 0; p < rotaryDim / 2; ++p) out.push_back(pairFrequency(base, p, rotaryDim));
  return out;
}

// One pair: cos(m theta) < 0 first when m theta > pi / 2, m = floor(pi / (2 theta)) + 1.
TEST(RopeBounds, OnePairTurnsNegativePastAQuarterTurn) {
  for (double theta : {1.0, 0.1, 0.0123, 3e-4}) {
    const DiscriminationBound b = discriminationBound({theta});
    ASSERT_TRUE(b.distance) << theta;
    EXPECT_EQ(*b.distance, static_cast<long long>(std::floor(kPi / (2.0 * theta))) + 1) << theta;
  }
  // Two equal pairs sum to twice one: the same bound.
  EXPECT_EQ(*discriminationBound({0.1, 0.1}).distance, 16);
}

TEST(RopeBounds, ManyPairsAgreeWithThePlainLoop) {
  for (const auto& [base, dim] : std::vector<std::pair<double, int>>{
           {10000.0, 128}, {10000.0, 32}, {500000.0, 64}, {1e6, 32}}) {
    const std::vector<double> thetas = vanillaThetas(base, dim);
    const DiscriminationBound b = discriminationBound(thetas);
    ASSERT_TRUE(b.distance) << base << " " << dim;
    EXPECT_EQ(*b.distance, bruteBound(thetas, *b.distance + 1)) << base << " " << dim;
  }
  // A random subset (an axis of a chunked or interleaved plan).
  std::mt19937 rng(7);
  const std::vector<double> all = vanillaThetas(1e6, 128);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> some;
    for (double t : all)
      if (rng() % 3 == 0) some.push_back(t);
    if (some.empty()) continue;
    const DiscriminationBound b = discriminationBound(some, 200000);
    const long long brute = bruteBound(some, 200000);
    if (brute < 0) {
      EXPECT_FALSE(b.distance);
    } else {
      ASSERT_TRUE(b.distance);
      EXPECT_EQ(*b.distance, brute);
    }
  }
}

// The search walks past its resync points (every 1024 steps) exactly: a pair whose quarter turn
// is far out.
TEST(RopeBounds, FarBoundsSurviveTheRotationRecurrence) {
  const double theta = kPi / 2.0 / 123456.5;
  EXPECT_EQ(*discriminationBound({theta}).distance, 123457);
}

TEST(RopeBounds, UndefinedWithoutARotatingPairOrPastTheLimit) {
  const DiscriminationBound none = discriminationBound({});
  EXPECT_FALSE(none.distance);
  EXPECT_NE(none.undefined.find("no rotary pair"), std::string::npos);
  const DiscriminationBound nope = discriminationBound({0.0, 0.0});
  EXPECT_FALSE(nope.distance);
  EXPECT_NE(nope.undefined.find("frequency 0"), std::string::npos);
  // One zero pair and one turning pair: 1 + cos(m theta) >= 0 always.
  const DiscriminationBound never = discriminationBound({0.0, 0.5});
  EXPECT_FALSE(never.distance);
  EXPECT_NE(never.undefined.find("1 of the 2 pairs do not turn"), std::string::npos);
  // One zero pair and two turning ones can fall below 0 (cos = -1 on both).
  EXPECT_EQ(discriminationBound({0.0, 1.0, 1.0}).distance, 3);  // 1 + 2 cos 3 < 0, 1 + 2 cos 2 > 0
  // Past the search limit: a pair whose quarter turn is beyond it.
  const DiscriminationBound far = discriminationBound({1e-6}, 1000);
  EXPECT_FALSE(far.distance);
  EXPECT_NE(far.undefined.find("up to distance 1000"), std::string::npos);
}

// 2310.05209: d_extra = 2 ceil((d / 2) log_b(L / 2 pi)); Llama 2 (b 1e4, d 128, L 4096): 92.
TEST(RopeBounds, CriticalDimensionIsTheClosedForm) {
  EXPECT_EQ(2 * fullPeriodPairs(vanillaThetas(10000.0, 128), 4096.0).size(), 92u);
  for (const auto& [base, dim, length] : std::vector<std::tuple<double, int, double>>{
           {10000.0, 128, 4096.0}, {1e6, 128, 32768.0}, {500000.0, 64, 8192.0}, {1e4, 32, 100.0}}) {
    const double x = (dim / 2.0) * std::log(length / (2.0 * kPi)) / std::log(base);
    const auto expected = static_cast<std::size_t>(std::ceil(x));
    EXPECT_EQ(fullPeriodPairs(vanillaThetas(base, dim), length).size(), expected)
        << base << " " << dim << " " << length;
  }
  // A pair of frequency 0 never turns a period; the list is of indices, highest frequency first.
  EXPECT_EQ(fullPeriodPairs({1.0, 0.0, 1e-9}, 100.0), (std::vector<int>{0}));
}

}  // namespace
}  // namespace ropescope
