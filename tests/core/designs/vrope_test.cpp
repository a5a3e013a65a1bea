// VRoPE (arXiv 2502.11664, johncaged/VRoPE): ids against the four index maps worked out by hand,
// the plan's pair cycle, and every metric (PTD, bias, decay, the rotary table) against a brute
// force that builds the four maps from the grid cell directly (not from the stored ids).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "ropescope/attention.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {

using Maps = std::array<double, 4>;

// The four maps of every token straight from the rule: text p on all four; frame k of an H x W
// block starting at s: base = s + k (H + W - 1), then base + (h + w, h + W-1-w, H-1-h + w,
// H-1-h + W-1-w). The walk resumes at s + T (H + W - 1).
std::vector<Maps> handMaps(const Layout& layout) {
  std::vector<Maps> out;
  double next = 0;
  for (const Segment& seg : layout.segments) {
    if (seg.kind == SegmentKind::Text) {
      for (int i = 0; i < seg.length; ++i, ++next) out.push_back({next, next, next, next});
      continue;
    }
    const double H = seg.rows, W = seg.cols, span = H + W - 1;
    for (int k = 0; k < seg.frames; ++k)
      for (int h = 0; h < seg.rows; ++h)
        for (int w = 0; w < seg.cols; ++w) {
          const double b = next + k * span;
          out.push_back(
              {b + h + w, b + h + (W - 1 - w), b + (H - 1 - h) + w, b + (H - 1 - h) + (W - 1 - w)});
        }
    next += seg.frames * span;
  }
  return out;
}

PairTable vropePairs(int headDim = 32) {
  FrequencySpec spec;
  spec.plan = "vrope";
  spec.rotary.headDim = headDim;
  spec.rotary.base = 10000;
  return resolvePairs(spec);
}

}  // namespace

// t2, a 2x3 image, t1 (s = 2, H + W - 1 = 4): cell (h, w) ->
//   (0,0) 2 4 3 | 5   (0,1) 3 3 4 | 4   (0,2) 4 2 5 | 3
//   (1,0) 3 5 2 | 4   (1,1) 4 4 3 | 3   (1,2) 5 3 4 | 2
// (stored t h w | fourth map); text resumes at 2 + 4 = 6, so rope_delta = 7 - 9 = -2.
TEST(Vrope, IdsAreTheFourFlippedDiagonalMaps) {
  const PositionIds ids = findDesign("vrope").ids(parseLayoutSpec("t2,i2x3,t1"), {});
  const std::vector<Id3> want = {{0, 0, 0}, {1, 1, 1}, {2, 4, 3}, {3, 3, 4}, {4, 2, 5},
                                 {3, 5, 2}, {4, 4, 3}, {5, 3, 4}, {6, 6, 6}};
  EXPECT_EQ(ids.ids, want);
  const std::vector<double> fourth = {0, 1, 5, 4, 3, 4, 3, 2, 6};
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(axisCoordinate(Axis::Mix, ids.ids[i]), fourth[i]) << "token " << i;
  EXPECT_EQ(ids.space, MetricSpace::FourMaps);
  EXPECT_EQ(ids.ropeDelta, -2.0);
}

// Frames shift by H + W - 1: a 2-frame 1x2 video from 0 has frames at 0 and 2, text at 4; the
// hand rule agrees with the design on a mixed layout, map by map.
TEST(Vrope, FramesShiftByHPlusWMinusOneAndMatchTheHandRule) {
  const PositionIds v = findDesign("vrope").ids(parseLayoutSpec("v2x1x2,t1"), {});
  EXPECT_EQ(v.ids, (std::vector<Id3>{{0, 1, 0}, {1, 0, 1}, {2, 3, 2}, {3, 2, 3}, {4, 4, 4}}));
  const Layout l = parseLayoutSpec("t3,i4x5,t2,v3x2x3,t4,i1x1,t1");
  const PositionIds ids = findDesign("vrope").ids(l, {});
  const std::vector<Maps> hand = handMaps(l);
  ASSERT_EQ(ids.ids.size(), hand.size());
  for (std::size_t i = 0; i < hand.size(); ++i)
    for (int m = 0; m < 4; ++m)
      EXPECT_EQ(axisCoordinate(kCoordinateAxes[m], ids.ids[i]), hand[i][m])
          << "token " << i << " map " << m;
}

// The paper's symmetry: the four maps of a frame's token sum to the same value for every token
// (4 base + 2 (H - 1) + 2 (W - 1)), so a text token's mean signed offset over the maps is the
// same to every token of a frame.
TEST(Vrope, TheFourMapsOfAFrameSumToOneValue) {
  const Layout l = parseLayoutSpec("t5,i3x7,t1");
  const PositionIds ids = findDesign("vrope").ids(l, {});
  for (std::size_t v : ids.visualIndices()) {
    double s = 0;
    for (Axis a : kCoordinateAxes) s += axisCoordinate(a, ids.ids[v]);
    EXPECT_EQ(s, 4 * 5 + 2 * 2 + 2 * 6) << "token " << v;
  }
}

TEST(Vrope, PlanCyclesPairsOverTheFourMapsAndTheDesignSuggestsIt) {
  const PairTable t = vropePairs(24);
  ASSERT_EQ(t.size(), 12);
  for (int p = 0; p < t.size(); ++p) EXPECT_EQ(t.axis[p], kCoordinateAxes[p % 4]) << p;
  EXPECT_EQ(findDesign("vrope").suggestedPlan(), "vrope");
  EXPECT_STREQ(axisName(Axis::Mix), "h+w-t");
}

// PTD in the four-map space: Euclidean distance over all four maps, brute force from handMaps;
// the fast path and the reference agree with it.
TEST(Vrope, PtdUsesAllFourMaps) {
  const Layout l = parseLayoutSpec("t4,i3x5,t3,v2x2x2,t2");
  const PositionIds ids = findDesign("vrope").ids(l, {});
  const std::vector<Maps> hand = handMaps(l);
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  double total = 0;
  for (std::size_t t : text) {
    std::vector<double> d;
    for (std::size_t v : vis) {
      double s = 0;
      for (int m = 0; m < 4; ++m) s += (hand[t][m] - hand[v][m]) * (hand[t][m] - hand[v][m]);
      d.push_back(std::sqrt(s));
    }
    double mean = 0;
    for (double x : d) mean += x;
    mean /= d.size();
    double mad = 0;
    for (double x : d) mad += std::abs(x - mean);
    total += mad / d.size();
  }
  const double want = total / text.size();
  EXPECT_NEAR(perTokenDistanceReference(ids).ptd, want, 1e-12);
  EXPECT_NEAR(perTokenDistance(ids, 2).ptd, want, 1e-12);
  // Three maps alone would give another value: the fourth map counts.
  PositionIds three = ids;
  three.space = MetricSpace::Space;
  EXPECT_GT(std::abs(perTokenDistanceReference(three).ptd - want), 1e-3);
}

// Bias: b = (1/n) sum_p cos(theta_p (m_{p mod 4}(text) - m_{p mod 4}(visual))), from handMaps.
TEST(Vrope, BiasRotatesEachPairWithItsMap) {
  const Layout l = parseLayoutSpec("t3,i4x4,t2,v2x3x2,t1");
  const PositionIds ids = findDesign("vrope").ids(l, {});
  const std::vector<Maps> hand = handMaps(l);
  const PairTable pairs = vropePairs(32);
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  const std::size_t token = text[3];
  const std::vector<double> got = biasToVisual(ids, pairs, token);
  ASSERT_EQ(got.size(), vis.size());
  for (std::size_t i = 0; i < vis.size(); ++i) {
    double s = 0;
    for (int p = 0; p < pairs.size(); ++p)
      s += std::cos(pairs.theta[p] * (hand[token][p % 4] - hand[vis[i]][p % 4]));
    EXPECT_NEAR(got[i], s / pairs.size(), 1e-13) << "visual " << i;
  }
  const BiasResult fast = biasSpread(ids, pairs, 2), ref = biasSpreadReference(ids, pairs);
  EXPECT_NEAR(fast.spread, ref.spread, 1e-12);
  ASSERT_EQ(fast.meanBias.size(), ref.meanBias.size());
  for (std::size_t t = 0; t < ref.meanBias.size(); ++t)
    EXPECT_NEAR(fast.meanBias[t], ref.meanBias[t], 1e-12);
}

// The rotary table attention uses: pair p's angle is theta_p times map p mod 4 of the token.
TEST(Vrope, RotaryTableTurnsEachPairByItsMap) {
  const Layout l = parseLayoutSpec("t2,i3x2,t1");
  const PositionIds ids = findDesign("vrope").ids(l, {});
  const std::vector<Maps> hand = handMaps(l);
  const PairTable pairs = vropePairs(16);
  const RotaryTable r = rotaryTable(ids.ids, pairs);
  for (std::size_t t = 0; t < hand.size(); ++t)
    for (int p = 0; p < pairs.size(); ++p) {
      const double angle = pairs.theta[p] * hand[t][p % 4];
      EXPECT_FLOAT_EQ(r.cos[t * pairs.size() + p], static_cast<float>(std::cos(angle)));
      EXPECT_FLOAT_EQ(r.sin[t * pairs.size() + p], static_cast<float>(std::sin(angle)));
    }
}

// Decay along h moves maps 1 and 3 (h and h+w-t) by one: U(d) by brute force over the pairs.
// The subset form has no meaning when a pair turns with several axes: one line says so.
TEST(Vrope, DecayMovesTheFourthMapWithHAndWAndRefusesTheSubsetForm) {
  const PairTable pairs = vropePairs(32);
  const std::vector<double> u = decayCurve(pairs, {0, 1, 0}, 50, DecayForm::Full, 1);
  for (int d : {0, 1, 7, 50}) {
    double re = 0, im = 0, total = 0;
    for (int p = 0; p < pairs.size(); ++p) {
      const double step = (p % 4 == 1 || p % 4 == 3) ? 1.0 : 0.0;
      re += std::cos(pairs.theta[p] * step * d);
      im += std::sin(pairs.theta[p] * step * d);
      total += std::hypot(re, im);
    }
    EXPECT_NEAR(u[d], total / pairs.size(), 1e-12) << "d = " << d;
  }
  try {
    decayCurve(pairs, {0, 1, 0}, 10, DecayForm::Subset, 1);
    FAIL() << "the subset form was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("h+w-t"), std::string::npos) << e.what();
  }
}
