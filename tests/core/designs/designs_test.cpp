// Position designs: conventions that must hold whatever the layout (text-only layouts give
// 0..N-1 everywhere, token bookkeeping, rope_delta), plus closed forms per design.
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/position_design.h"
#include "test_util.h"

using namespace ropescope;

TEST(Designs, RegistryListsEveryDesignOnce) {
  std::vector<std::string> names;
  for (const PositionDesign* d : allDesigns()) names.push_back(d->name());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "hard", "unordered", "spatial", "mrope", "mrope-reset", "videorope", "hope",
                       "circle", "v2pe", "mca", "mm-rope", "omnirope", "ilrope", "vrope", "tad-tc",
                       "tad-videorope", "pype", "partial-yarn", "thumb-inherit",
                       // the model families (families_test.cpp)
                       "qwen2-vl", "qwen2.5-vl", "qwen3-vl", "qwen3.5", "glm4v", "ernie4.5-vl",
                       "qwen2.5-omni", "qwen3-omni"}));
  EXPECT_THROW(findDesign("cone"), InputError);
}

TEST(Designs, PureTextGivesTheSameIdsUnderEveryDesign) {
  const Layout l = parseLayoutSpec("t7,t3");
  for (const PositionDesign* d : allDesigns()) {
    const PositionIds ids = d->ids(l, {});
    ASSERT_EQ(ids.size(), 10u) << d->name();
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (int a = 0; a < 3; ++a) EXPECT_EQ(ids.ids[i][a], static_cast<double>(i)) << d->name();
    EXPECT_EQ(ids.ropeDelta, 0.0) << d->name();
  }
}

TEST(Designs, TokenBookkeepingFollowsFrameRowColOrder) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Layout l = test::randomLayout(rng);
    for (const PositionDesign* d : allDesigns()) {
      const PositionIds ids = d->ids(l, {});
      ASSERT_EQ(ids.size(), l.tokenCount());
      ASSERT_EQ(ids.tokens.size(), l.tokenCount());
      std::size_t k = 0;
      for (std::size_t s = 0; s < l.segments.size(); ++s) {
        const Segment& seg = l.segments[s];
        if (!seg.isVisual()) {
          for (int j = 0; j < seg.length; ++j, ++k) {
            EXPECT_EQ(ids.tokens[k].modality, Modality::Text);
            // Text ids lie on the diagonal under every design.
            EXPECT_EQ(ids.ids[k][0], ids.ids[k][1]);
            EXPECT_EQ(ids.ids[k][1], ids.ids[k][2]);
          }
          continue;
        }
        for (int f = 0; f < seg.frames; ++f)
          for (int r = 0; r < seg.rows; ++r)
            for (int c = 0; c < seg.cols; ++c, ++k) {
              EXPECT_EQ(ids.tokens[k].segment, static_cast<int>(s));
              EXPECT_EQ(ids.tokens[k].frame, f);
              EXPECT_EQ(ids.tokens[k].row, r);
              EXPECT_EQ(ids.tokens[k].col, c);
            }
      }
      for (const Id3& id : ids.ids)
        for (double x : id) ASSERT_TRUE(std::isfinite(x)) << d->name();
    }
  }
}

TEST(Designs, HardIsTheRunningIndex) {
  const PositionIds ids = findDesign("hard").ids(parseLayoutSpec("t2,v2x2x3,t1"), {});
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids.ids[i][0], static_cast<double>(i));
  EXPECT_EQ(ids.ropeDelta, 0.0);
  EXPECT_EQ(ids.space, MetricSpace::Line);
}

TEST(Designs, UnorderedSharesOneIndexPerBlock) {
  const PositionIds ids = findDesign("unordered").ids(parseLayoutSpec("t2,i3x3,t1,i2x2"), {});
  for (std::size_t i = 2; i < 11; ++i) EXPECT_EQ(ids.ids[i][0], 2.0);
  EXPECT_EQ(ids.ids[11][0], 3.0);
  for (std::size_t i = 12; i < 16; ++i) EXPECT_EQ(ids.ids[i][0], 4.0);
  EXPECT_EQ(ids.ropeDelta, 5.0 - 16.0);
}

TEST(Designs, MropeTextResumesAfterTheBlockMaximum) {
  // 5 text, 3x4 image at off 5: ids (5, 5+r, 5+c); next text 5 + max(0, 2, 3) + 1 = 9.
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t5,i3x4,t2"), {});
  EXPECT_EQ(ids.ids[5 + 7], (Id3{5, 6, 8}));  // row 1, col 3
  EXPECT_EQ(ids.ids[17][0], 9.0);
  EXPECT_EQ(ids.ropeDelta, 11.0 - 19.0);
}

TEST(Designs, MropeVideoUsesAbsoluteTime) {
  ParameterSet p;
  p.set("fps", 1.0);  // 2 s per temporal patch, 2 ids per second: tau(k) = 4k
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("v3x1x1"), p);
  EXPECT_EQ(ids.ids[2][0], 8.0);
}

TEST(Designs, V2peSpansTheVisualStride) {
  ParameterSet p;
  p.set("visual_stride", 8.0);
  const PositionIds ids = findDesign("v2pe").ids(parseLayoutSpec("t1,i2x2,t1"), p);
  EXPECT_DOUBLE_EQ(ids.ids[1][0], 2.0);
  EXPECT_DOUBLE_EQ(ids.ids[4][0], 8.0);
  EXPECT_EQ(ids.ids[5][0], 9.0);  // ceil(8) + 1
}

TEST(Designs, BadParametersAreRefusedWithTheirRange) {
  const Layout l = parseLayoutSpec("t1,i2x2");
  auto expectError = [&](const char* design, const char* key, double v, const char* text) {
    ParameterSet p;
    p.set(key, v);
    try {
      findDesign(design).ids(l, p);
      FAIL() << key << "=" << v << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), key);
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expectError("circle", "alpha", 1.5, "[0, 1]");
  expectError("circle", "alpha", -0.1, "[0, 1]");
  expectError("circle", "alpha", std::nan(""), "finite");
  expectError("circle", "radius", 0.0, "(0, 1000000]");
  expectError("circle", "radius", -3.0, "(0, 1000000]");
  expectError("circle", "radius", INFINITY, "finite");
  expectError("circle", "dff", 2.0, "[0, 1]");
  expectError("circle", "centre", 0.5, "0 or 1");
  expectError("circle", "move_to_positive", 3.0, "offset");
  expectError("mrope", "fps", 0.0, "(0, 240]");
  expectError("hard", "alpha", 0.5, "unknown parameter");
}
