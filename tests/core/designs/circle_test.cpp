// Circle-RoPE geometry as properties: the cone (equal distances, closed form), the ring in the
// plane X + Y + Z = 0, PTD = 0 for any layout, and the option semantics.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "ropescope/circle_projection.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "test_util.h"

using namespace ropescope;

TEST(CircleProjection, RingLiesInThePlaneOrthogonalToTheTextAxis) {
  for (int h = 1; h <= 6; ++h)
    for (int w = 1; w <= 6; ++w) {
      const auto cells = circleProjection(h, w, CircleOptions{});
      ASSERT_EQ(cells.size(), static_cast<std::size_t>(h * w));
      for (const CircleCell& c : cells) {
        EXPECT_NEAR(c.offset[0] + c.offset[1] + c.offset[2], 0.0, 1e-12);
        EXPECT_NEAR(std::hypot(c.offset[0], c.offset[1], c.offset[2]), 10.0, 1e-12);
      }
    }
}

TEST(CircleProjection, AnglesFollowTheDefinition) {
  // 2x2: SA = (0, 2pi/3, 2pi, 4pi/3), GA = (0, pi/2, pi, 3pi/2)
  // (docs/designs.md#circle-rope-worked-values).
  const double pi = std::numbers::pi;
  const auto cells = circleProjection(2, 2, CircleOptions{});
  const double sa[] = {0, 2 * pi / 3, 2 * pi, 4 * pi / 3};
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(cells[k].sa, sa[k], 1e-12);
    EXPECT_NEAR(cells[k].ga, pi / 2 * k, 1e-12);
    EXPECT_NEAR(cells[k].theta, 0.5 * sa[k] + 0.5 * pi / 2 * k, 1e-12);
  }
}

TEST(CircleProjection, AutoRadiusOfOneCellIsZero) {
  CircleOptions o;
  o.autoRadius = true;
  EXPECT_EQ(circleRadius(1, 1, o), 0.0);
  EXPECT_EQ(circleRadius(3, 5, o), 2.0);
  o.autoK = 3.0;
  EXPECT_EQ(circleRadius(3, 5, o), 6.0);
}

TEST(CircleDesign, EveryTextTokenSeesACone) {
  // A text token at (p,p,p) is sqrt(3 (p - s)^2 + R^2) from every ring token of an image at s.
  ParameterSet params;
  params.set("radius", 7.5);
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t3,i4x5,t6"), params);
  const double s = 3.0;
  for (std::size_t t : ids.textIndices()) {
    const double p = ids.ids[t][0];
    for (double d : distancesToVisual(ids, t))
      EXPECT_NEAR(d, std::sqrt(3 * (p - s) * (p - s) + 7.5 * 7.5), 1e-12);
  }
}

TEST(CircleDesign, PtdIsZeroForAnyImageAndEachRingIsEquidistant) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> alpha(0, 1), radius(0.5, 40);
  for (int trial = 0; trial < 40; ++trial) {
    Layout l;
    // Several images: each text token is equidistant from every token of one ring; with one
    // image that makes PTD zero (several rings sit at different distances, so PTD is not).
    const int blocks = 1 + trial % 3;
    for (int b = 0; b < blocks; ++b) {
      l.segments.push_back(Segment::text(1 + trial % 5));
      l.segments.push_back(Segment::image(1 + (trial + b) % 7, 1 + (3 * trial + b) % 6));
    }
    l.segments.push_back(Segment::text(4));
    const bool single = blocks == 1;
    ParameterSet p;
    p.set("alpha", alpha(rng));
    p.set("radius", radius(rng));
    p.set("move_to_positive", trial % 3);
    p.set("positive_offset", 1.0);
    const PositionIds ids = findDesign("circle").ids(l, p);
    for (std::size_t t : ids.textIndices()) {
      const std::vector<double> d = distancesToVisual(ids, t);
      const auto vis = ids.visualIndices();
      for (std::size_t i = 1; i < d.size(); ++i)
        if (ids.tokens[vis[i]].segment == ids.tokens[vis[i - 1]].segment)
          EXPECT_NEAR(d[i], d[i - 1], 1e-12 * d[i]) << formatLayoutSpec(l);
    }
    if (single) EXPECT_LT(perTokenDistance(ids).ptd, 1e-12 * 100) << formatLayoutSpec(l);
  }
}

TEST(CircleDesign, DualFrameFusionBreaksTheCone) {
  ParameterSet p;
  p.set("dff", 0.3);
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("i3x3,t5"), p);
  // docs/designs.md#circle-rope-worked-values: beta = 0.3 on 3x3 with 5 text after gives PTD
  // 0.0554.
  EXPECT_NEAR(perTokenDistance(ids).ptd, 0.0554, 5e-5);
}

TEST(CircleDesign, MoveToPositiveMakesEveryIdNonNegative) {
  ParameterSet p;
  p.set("move_to_positive", 1);  // auto
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("i5x5,t2"), p);
  double mn = 1e9;
  for (const Id3& id : ids.ids)
    for (double x : id) mn = std::min(mn, x);
  EXPECT_NEAR(mn, 0.0, 1e-12);
}

TEST(CircleDesign, TextAfterARingIsFractional) {
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t1,i2x2,t1"), {});
  EXPECT_NEAR(ids.ids[5][0], 9.886751346, 1e-9);
  EXPECT_NEAR(ids.ropeDelta, 4.886751346, 1e-9);
}
