// The selected token's bias profile (core/src/bias_profile.cpp) and the vector cosines under it
// (kernels/metric_kernels.cpp): checked against positionalBias, the per-pair sum of std::cos
// read straight from the definition, and against itself across thread counts and copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../core/src/kernels/metric_kernels.h"
#include "ropescope/bias_profile.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {

std::vector<const detail::MetricKernels*> everyCopy() {
  std::vector<const detail::MetricKernels*> out;
  for (const char* isa : {"baseline", "avx2", "avx512"})
    if (const detail::MetricKernels* k = detail::metricKernelsFor(isa)) out.push_back(k);
  return out;
}

FrequencySpec spec(const char* plan, int headDim, int rotaryDim, double base) {
  FrequencySpec s;
  s.plan = plan;
  s.rotary.headDim = headDim;
  s.rotary.rotaryDim = rotaryDim;
  s.rotary.base = base;
  return s;
}

}  // namespace

// One cosine per element: sums of one pair with theta 1, own 0 and divisor 1 (cos(0 - (-x))).
static std::vector<double> cosinesBy(const detail::MetricKernels& k, const std::vector<double>& x) {
  std::vector<double> minus(x.size()), out(x.size(), std::nan(""));
  for (std::size_t i = 0; i < x.size(); ++i) minus[i] = -x[i];
  const double one = 1.0;
  k.cosineSums(minus.data(), minus.size(), &one, 1, 0.0, 1.0, out.data());
  return out;
}

// Every copy's cosines within 4 ulp of std::cos (libmvec's bound) over small, large and
// negative arguments, and exactly 1 at 0.
TEST(BiasProfile, VectorCosinesAgreeWithStdCos) {
  std::mt19937_64 rng(7);
  std::vector<double> x;
  for (double scale : {1e-3, 1.0, 40.0, 1e4, 1e6})
    for (int i = 0; i < 400; ++i)
      x.push_back(std::uniform_real_distribution<double>(-scale, scale)(rng));
  x.push_back(0.0);
  for (const detail::MetricKernels* k : everyCopy()) {
    const std::vector<double> got = cosinesBy(*k, x);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = std::cos(x[i]);
      EXPECT_LE(std::abs(got[i] - want),
                4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(want), 0.25))
          << k->isa << " cos(" << x[i] << ")";
    }
    EXPECT_EQ(got.back(), 1.0) << k->isa;
  }
}

// A sum over several pairs: the pairs' cosines added in their order, then divided, each within
// 4 ulp of std::cos (the sum's own rounding is at most one ulp of the running sum per pair).
TEST(BiasProfile, CosineSumsAddEachPairsCosineInOrder) {
  const std::vector<double> theta = {1.0, 0.31, 0.07, 1e-3, 2.5e-5};
  std::vector<double> v(29);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 13.7 * static_cast<double>(i) - 120.25;
  const double own = 41.5, divisor = 7.0;
  for (const detail::MetricKernels* k : everyCopy()) {
    std::vector<double> got(v.size(), std::nan(""));
    k->cosineSums(v.data(), v.size(), theta.data(), theta.size(), own, divisor, got.data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      double want = 0.0;
      for (double th : theta) want += std::cos(th * (own - v[i]));
      EXPECT_NEAR(got[i], want / divisor, 10 * std::numeric_limits<double>::epsilon())
          << k->isa << " v " << v[i];
    }
  }
}

// An element's sum has the same bits wherever it falls in a call: at the start, in the middle
// or in a tail of any length (how threads split an array must not matter).
TEST(BiasProfile, AnElementsCosineDoesNotDependOnItsPlaceInTheCall) {
  std::vector<double> x(37);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.37 * static_cast<double>(i * i) - 50.0;
  const double theta[3] = {0.9, 0.013, 0.4};
  for (const detail::MetricKernels* k : everyCopy()) {
    std::vector<double> whole(x.size());
    k->cosineSums(x.data(), x.size(), theta, 3, 2.0, 3.0, whole.data());
    for (std::size_t first = 0; first < x.size(); ++first)
      for (std::size_t n = 1; first + n <= x.size(); n += 3) {
        std::vector<double> part(n);
        k->cosineSums(x.data() + first, n, theta, 3, 2.0, 3.0, part.data());
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(part[i], whole[first + i]) << k->isa << " first " << first << " n " << n;
      }
  }
}

// The profile against the definition, token by token: designs whose ids are integers (few
// distinct values), off the grid (circle: one value per token) and on VRoPE's h+w-t axis; plans
// with NoPE pairs (vanilla) and interleaved sections.
TEST(BiasProfile, EqualsThePositionalBiasOfEveryVisualToken) {
  const PairTable plans[] = {
      resolvePairs(spec("mrope", 128, 128, 1e4)), resolvePairs(spec("vanilla", 128, 64, 1e4)),
      resolvePairs(spec("interleaved", 128, 128, 1e6)), resolvePairs(spec("vrope", 32, 32, 1e4))};
  for (const PairTable& pairs : plans)
    for (const char* design : {"mrope", "circle", "v2pe", "vrope"}) {
      const PositionIds ids = findDesign(design).ids(parseLayoutSpec("t5,i6x7,t3,v2x3x4,t2"), {});
      const std::vector<std::size_t> vis = ids.visualIndices();
      const TokenAxisIndex index = tokenAxisIndex(ids, vis);
      ASSERT_EQ(index.tokens, vis.size());
      for (std::size_t t = 0; t < ids.size(); t += 3) {
        const std::vector<double> b = biasProfile(index, pairs, ids.ids[t]);
        ASSERT_EQ(b.size(), vis.size());
        for (std::size_t i = 0; i < vis.size(); ++i)
          ASSERT_NEAR(b[i], positionalBias(pairs, displacement(ids, t, vis[i])), 1e-14)
              << pairs.size() << " pairs, " << design << " token " << t << " to " << vis[i];
      }
    }
}

// The index keeps each axis's distinct values once, ascending, and every token finds its own.
TEST(BiasProfile, TheIndexHoldsEachDistinctCoordinateOnce) {
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t4,i5x9,t2"), {});
  const std::vector<std::size_t> vis = ids.visualIndices();
  const TokenAxisIndex index = tokenAxisIndex(ids, vis, 3);
  EXPECT_EQ(index.values[1].size(), 5u);  // h: the rows
  EXPECT_EQ(index.values[2].size(), 9u);  // w: the columns
  for (int a = 0; a < 4; ++a) {
    EXPECT_TRUE(std::is_sorted(index.values[a].begin(), index.values[a].end())) << a;
    EXPECT_EQ(std::adjacent_find(index.values[a].begin(), index.values[a].end()),
              index.values[a].end())
        << a;
    ASSERT_EQ(index.index[a].size(), vis.size());
    for (std::size_t i = 0; i < vis.size(); ++i)
      EXPECT_EQ(index.values[a][index.index[a][i]],
                axisCoordinate(kCoordinateAxes[a], ids.ids[vis[i]]));
  }
}

// Split among any number of threads, in blocks of values and ranges of tokens: the same bits.
TEST(BiasProfile, IsTheSameOnEveryThreadCount) {
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t9,i45x61,t9"), {});
  const PairTable pairs = resolvePairs(spec("mrope", 128, 128, 1e4));
  const TokenAxisIndex one = tokenAxisIndex(ids, ids.visualIndices(), 1);
  const std::vector<double> first = biasProfile(one, pairs, ids.ids[4], 1);
  for (int threads : {2, 3, 7}) {
    const TokenAxisIndex index = tokenAxisIndex(ids, ids.visualIndices(), threads);
    EXPECT_EQ(index.values, one.values) << threads;
    EXPECT_EQ(index.index, one.index) << threads;
    EXPECT_EQ(biasProfile(index, pairs, ids.ids[4], threads), first) << threads;
  }
}

// The bias spread's visual-side tables: each copy's sines and cosines within 4 ulp of std::sin
// and std::cos before the division (libmvec's bound; one more rounding after it), and an
// element's bits independent of where it falls in the call.
TEST(BiasProfile, TrigTablesAgreeWithStdAndDoNotDependOnPlace) {
  std::mt19937_64 rng(11);
  std::vector<double> v;
  for (double scale : {1e-3, 1.0, 40.0, 1e4})
    for (int i = 0; i < 101; ++i)
      v.push_back(std::uniform_real_distribution<double>(-scale, scale)(rng));
  v.push_back(0.0);
  const double theta = 0.731, divisor = 64.0;
  const double eps = std::numeric_limits<double>::epsilon();
  for (const detail::MetricKernels* k : everyCopy()) {
    std::vector<double> c(v.size(), std::nan("")), s(v.size(), std::nan(""));
    k->trigTable(v.data(), v.size(), theta, divisor, c.data(), s.data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double wc = std::cos(theta * v[i]), ws = std::sin(theta * v[i]);
      EXPECT_LE(std::abs(c[i] * divisor - wc), 5 * eps * std::max(std::abs(wc), 0.25))
          << k->isa << " cos(" << theta * v[i] << ")";
      EXPECT_LE(std::abs(s[i] * divisor - ws), 5 * eps * std::max(std::abs(ws), 0.25))
          << k->isa << " sin(" << theta * v[i] << ")";
    }
    EXPECT_EQ(c.back(), 1.0 / divisor) << k->isa;
    EXPECT_EQ(s.back(), 0.0) << k->isa;
    for (std::size_t first : {std::size_t{0}, std::size_t{3}, std::size_t{8}, std::size_t{396}})
      for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{8}, std::size_t{9}}) {
        ASSERT_LE(first + n, v.size());
        std::vector<double> pc(n), ps(n);
        k->trigTable(v.data() + first, n, theta, divisor, pc.data(), ps.data());
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(pc[i], c[first + i]) << k->isa << " first " << first << " n " << n;
          ASSERT_EQ(ps[i], s[first + i]) << k->isa << " first " << first << " n " << n;
        }
      }
  }
}

// Axes left out of an index stay empty; the others are as in the full index.
TEST(BiasProfile, AnIndexOfSomeAxesLeavesTheOthersEmpty) {
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t3,i7x5,t2"), {});
  const TokenAxisIndex all = tokenAxisIndex(ids, ids.visualIndices());
  const TokenAxisIndex some =
      tokenAxisIndex(ids, ids.visualIndices(), 2, {true, false, true, false});
  EXPECT_EQ(some.values[0], all.values[0]);
  EXPECT_EQ(some.index[2], all.index[2]);
  EXPECT_TRUE(some.values[1].empty());
  EXPECT_TRUE(some.index[3].empty());
  EXPECT_EQ(all.values[2].size(), 35u);  // circle: one w value per visual token
}

// The bias spread given the live views' index is the bias spread that builds its own, bit for
// bit (circle: the fused product; mrope: integer tables; vrope: the h+w-t axis), and an index of
// other tokens is refused.
TEST(BiasProfile, TheSpreadGivenTheIndexIsTheSpreadThatBuildsIt) {
  const PairTable pairs = resolvePairs(spec("mrope", 128, 128, 1e6));
  const PairTable vrope = resolvePairs(spec("vrope", 32, 32, 1e4));
  for (const char* design : {"circle", "mrope", "vrope"}) {
    const PositionIds ids = findDesign(design).ids(parseLayoutSpec("t40,i24x30,t40"), {});
    const PairTable& p = std::string(design) == "vrope" ? vrope : pairs;
    const TokenAxisIndex index = tokenAxisIndex(ids, ids.visualIndices());
    for (int threads : {1, 2}) {
      const BiasResult own = biasSpread(ids, p, threads),
                       given = biasSpread(ids, p, index, threads);
      EXPECT_EQ(given.spread, own.spread) << design << " " << threads;
      EXPECT_EQ(given.perText, own.perText) << design << " " << threads;
      EXPECT_EQ(given.meanBias, own.meanBias) << design << " " << threads;
    }
    const PositionIds other = findDesign(design).ids(parseLayoutSpec("t4,i2x3,t4"), {});
    const TokenAxisIndex small = tokenAxisIndex(other, other.visualIndices());
    EXPECT_THROW(biasSpread(ids, p, small), std::invalid_argument) << design;
    // Refused before the result is known to be undefined (no text token here).
    const PositionIds noText = findDesign(design).ids(parseLayoutSpec("i5x5"), {});
    EXPECT_FALSE(biasSpread(noText, p).defined());
    EXPECT_THROW(biasSpread(noText, p, small), std::invalid_argument) << design;
  }
}

// An index without an axis the pairs use is refused by the profile too, not read past its end.
TEST(BiasProfile, AProfileRefusesAnIndexWithoutAnAxisItsPairsUse) {
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t3,i4x4,t2"), {});
  const PairTable pairs = resolvePairs(spec("mrope", 128, 128, 1e4));  // t, h and w pairs
  const TokenAxisIndex noH = tokenAxisIndex(ids, ids.visualIndices(), 1, {true, false, true, true});
  EXPECT_THROW(biasProfile(noH, pairs, ids.ids[0]), std::invalid_argument);
  EXPECT_THROW(biasSpread(ids, pairs, noH), std::invalid_argument);
  const TokenAxisIndex all = tokenAxisIndex(ids, ids.visualIndices());
  EXPECT_EQ(biasProfile(all, pairs, ids.ids[0]).size(), 16u);
}

// A NaN coordinate cannot be sorted: the index refuses it with the token's number.
TEST(BiasProfile, TheIndexRefusesANaNCoordinate) {
  PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t2,i3x3"), {});
  const std::vector<std::size_t> vis = ids.visualIndices();
  ids.ids[vis[4]][1] = std::nan("");
  try {
    (void)tokenAxisIndex(ids, vis, 2);
    ADD_FAILURE() << "a NaN coordinate was indexed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("token " + std::to_string(vis[4])), std::string::npos)
        << e.what();
  }
}
