// PTD by chunks (core/src/ptd_chunks.h): the series against direct sums at its threshold, the
// whole computation against the definition for every design, and cancelling.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../core/src/ptd_chunks.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "ropescope/progress.h"
#include "test_util.h"

namespace ropescope {
namespace {

// Sum of distances from (x, ..., x) to the tokens, compensated, as the definition reads.
double directSum(const PositionIds& ids, const std::vector<std::size_t>& to, double x) {
  PositionIds probe = ids;
  probe.ids.push_back({x, x, x});
  probe.tokens.push_back({});
  double sum = 0.0, comp = 0.0;
  for (std::size_t v : to) {
    const double d = tokenDistance(probe, probe.size() - 1, v);
    const double t = sum + d;
    comp += std::abs(sum) >= std::abs(d) ? (sum - t) + d : (d - t) + sum;
    sum = t;
  }
  return sum + comp;
}

// Relative distance of a value from the reference, with a floor for values near 0 (a deviation
// that is 0 up to rounding in both).
double relError(double got, double want, double floor) {
  return std::abs(got - want) / std::max(std::abs(want), floor);
}

TEST(PtdChunks, SeriesMatchesDirectSumsFromItsThresholdOut) {
  // Chunks on and off the diagonal, in every metric space: each chunk's series, at the nearest
  // text position the bound admits and beyond, against the direct sum.
  const char* const layouts[] = {"t5,i32x32,t5", "t5,v6x16x16,t5", "t5,i3x40,t5", "t5,v40x2x2,t5"};
  int checked = 0;
  for (const PositionDesign* d : allDesigns()) {
    for (const char* spec : layouts) {
      const PositionIds ids = d->ids(parseLayoutSpec(spec), {});
      const std::vector<std::size_t> vis = ids.visualIndices();
      const detail::PtdChunks pc = detail::ptdChunks(ids, vis);
      double covered = 0.0;
      for (const detail::PtdChunk& c : pc.chunks) covered += c.count;
      ASSERT_EQ(covered, static_cast<double>(vis.size())) << d->name();
      // The total over chunks, at text positions from near the blocks to far away.
      for (double step : {1.0, 0.37}) {
        for (int i = 0; i < 400; ++i) {
          const double x = -5.0 - step * i * i;
          double series = 0.0;
          bool allFar = true;
          for (const detail::PtdChunk& c : pc.chunks) {
            double s = 0.0;
            if (!detail::seriesDistanceSum(c, pc.dims, x, &s)) {
              allFar = false;
              break;
            }
            series += s;
          }
          if (!allFar) continue;
          const double want = directSum(ids, vis, x);
          EXPECT_LE(relError(series, want, 1e-300), 1e-13)
              << d->name() << " " << spec << " x=" << x;
          ++checked;
          break;  // the nearest position where every chunk is far: the threshold
        }
      }
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(PtdChunks, SeriesOfOneChunkAtItsOwnThreshold) {
  // One chunk alone (a single picture, or a frame far off the diagonal): scan outwards from its
  // centre to the first position its bound admits, in both directions, and compare there.
  for (const char* design :
       {"mrope", "circle", "videorope", "vrope", "spatial", "v2pe", "hope", "mrope-reset"}) {
    for (const char* spec : {"t1,i32x32", "t1,v1x32x32", "t1,i7x29"}) {
      const PositionIds ids = findDesign(design).ids(parseLayoutSpec(spec), {});
      const std::vector<std::size_t> vis = ids.visualIndices();
      const detail::PtdChunks pc = detail::ptdChunks(ids, vis);
      ASSERT_EQ(pc.chunks.size(), 1u) << design << " " << spec;
      const detail::PtdChunk& c = pc.chunks[0];
      for (double dir : {-1.0, 1.0}) {
        bool found = false;
        for (double off = 0.0; off < 1e5 && !found; off += 0.25 + 0.01 * off) {
          const double x = c.x0 + dir * off;
          double s = 0.0;
          if (!detail::seriesDistanceSum(c, pc.dims, x, &s)) continue;
          found = true;
          const double want = directSum(ids, vis, x);
          EXPECT_LE(relError(s, want, 1e-300), 1e-13) << design << " " << spec << " x=" << x;
          for (double further : {1.5, 4.0, 100.0, 1e6}) {
            const double xf = c.x0 + dir * off * further;
            ASSERT_TRUE(detail::seriesDistanceSum(c, pc.dims, xf, &s));
            EXPECT_LE(relError(s, directSum(ids, vis, xf), 1e-300), 1e-13) << design << " x=" << xf;
          }
        }
        EXPECT_TRUE(found) << design << " " << spec;
      }
    }
  }
}

void expectMatchesReference(const PositionIds& ids, GroupPair g, const std::string& what) {
  const PtdResult fast = perTokenDistance(ids, 2, g), slow = perTokenDistanceReference(ids, g);
  ASSERT_EQ(fast.defined(), slow.defined()) << what;
  ASSERT_EQ(fast.perText.size(), slow.perText.size()) << what;
  if (!slow.defined()) {
    EXPECT_TRUE(std::isnan(fast.ptd)) << what;
    EXPECT_EQ(fast.undefinedReason, slow.undefinedReason) << what;
    return;
  }
  for (std::size_t t = 0; t < fast.perText.size(); ++t) {
    const double mean = slow.meanDistance[t];
    ASSERT_LE(relError(fast.meanDistance[t], mean, 1e-300), 1e-12) << what << " text " << t;
    // A deviation far below the mean is itself rounding noise in the definition's sum: relative
    // to 1e-3 of the mean there.
    ASSERT_LE(relError(fast.perText[t], slow.perText[t], 1e-3 * mean), 1e-12)
        << what << " text " << t << ": " << fast.perText[t] << " vs " << slow.perText[t];
  }
  double meanOfMeans = 0.0;
  for (double m : slow.meanDistance)
    meanOfMeans += m / static_cast<double>(slow.meanDistance.size());
  EXPECT_LE(relError(fast.ptd, slow.ptd, 1e-3 * meanOfMeans), 1e-12) << what;
}

TEST(PtdChunks, AgreesWithTheDefinitionForEveryDesign) {
  // Text right next to blocks, far from them and in between; images, videos, wide and tall
  // grids; several blocks per chunk scale.
  const char* const layouts[] = {"t1,i8x8,t1,i8x8,t1",
                                 "t2000,i16x16,t2000",
                                 "t700,v5x12x20,t30,i40x3,t900",
                                 "i33x70,t1500",
                                 "t300,i5x5,t300,i5x5,t300,i5x5,t300",
                                 "t1200,v12x6x6,t10,v2x33x33,t500"};
  for (const PositionDesign* d : allDesigns())
    for (const char* spec : layouts)
      expectMatchesReference(d->ids(parseLayoutSpec(spec), {}), {},
                             d->name() + " " + std::string(spec));
}

TEST(PtdChunks, AgreesWithTheDefinitionOnRandomLayouts) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 12; ++trial) {
    const Layout l = test::randomLayout(rng, 8, 40);
    for (const PositionDesign* d : allDesigns())
      expectMatchesReference(d->ids(l, {}), {}, d->name() + " " + formatLayoutSpec(l));
  }
}

TEST(PtdChunks, OtherGroupsAndEmptyGroups) {
  const Layout l = parseLayoutSpec("t900,i20x20,t40,v3x9x9,t800");
  for (const char* design : {"mrope", "circle", "v2pe", "vrope"}) {
    const PositionIds ids = findDesign(design).ids(l, {});
    for (GroupPair g : {GroupPair{TokenGroup::Text, TokenGroup::Image},
                        GroupPair{TokenGroup::Text, TokenGroup::Video},
                        GroupPair{TokenGroup::Image, TokenGroup::Video},
                        GroupPair{TokenGroup::Text, TokenGroup::Audio}})
      expectMatchesReference(
          ids, g, std::string(design) + " " + tokenGroupName(g.from) + "->" + tokenGroupName(g.to));
  }
  const PositionIds noVisual = findDesign("mrope").ids(parseLayoutSpec("t9"), {});
  const PtdResult r = perTokenDistance(noVisual, 2);
  EXPECT_TRUE(std::isnan(r.ptd));
  EXPECT_FALSE(r.defined());
}

TEST(PtdChunks, ThreadCountDoesNotChangeABit) {
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t3000,v4x20x20,t3000"), {});
  const PtdResult one = perTokenDistance(ids, 1), two = perTokenDistance(ids, 2);
  EXPECT_EQ(one.perText, two.perText);
  EXPECT_EQ(one.meanDistance, two.meanDistance);
  EXPECT_EQ(one.ptd, two.ptd);
}

TEST(PtdChunks, ReportsProgressUpToOne) {
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t5000,i16x16,t5000"), {});
  for (int threads : {1, 2}) {
    std::vector<double> seen;
    Progress p;
    p.report = [&seen](double f) { seen.push_back(f); };
    const PtdResult r = perTokenDistance(ids, threads, {}, p);
    EXPECT_TRUE(r.defined());
    ASSERT_GE(seen.size(), 3u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.back(), 1.0);
    EXPECT_LE(seen.size(), 101u);
  }
}

TEST(PtdChunks, CancelStopsWithoutAResult) {
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t20000,i32x32,t20000"), {});
  const PairTable pairs = resolvePairs(FrequencySpec{});
  for (int threads : {1, 2}) {
    // Stop at the third poll: the call throws, and the work after the stop is at most one piece
    // per thread (no further poll says "go on").
    std::atomic<int> polls{0};
    std::atomic<int> reportsAfterStop{0};
    Progress p;
    p.cancel = [&polls] { return ++polls >= 3; };
    p.report = [&polls, &reportsAfterStop](double) {
      if (polls >= 3) ++reportsAfterStop;
    };
    EXPECT_THROW(perTokenDistance(ids, threads, {}, p), Cancelled);
    EXPECT_EQ(polls.load(), 3) << threads;
    EXPECT_EQ(reportsAfterStop.load(), 0);
    polls = 0;
    EXPECT_THROW(perTokenDistanceReference(ids, {}, p), Cancelled);
    EXPECT_EQ(polls.load(), 3);
    polls = 0;
    EXPECT_THROW(biasSpread(ids, pairs, threads, {}, p), Cancelled);
    EXPECT_EQ(polls.load(), 3);
    polls = 0;
    EXPECT_THROW(biasSpreadReference(ids, pairs, {}, p), Cancelled);
    EXPECT_EQ(polls.load(), 3);
  }
  // Cancelled before it starts: nothing is computed.
  Progress now;
  now.cancel = [] { return true; };
  EXPECT_THROW(perTokenDistance(ids, 2, {}, now), Cancelled);
}

}  // namespace
}  // namespace ropescope
