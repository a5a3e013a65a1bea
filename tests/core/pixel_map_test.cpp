// Tiled pictures (InternVL's tile grid) and the token -> pixel map: grids and rectangles worked
// out by hand from the processors' rules, and over many picture sizes the properties the rules
// imply (the chosen grid is the closest aspect ratio, the tiles and the thumbnail each cover the
// picture exactly once, a grid's rectangles tile the picture).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ropescope/errors.h"
#include "ropescope/layout_files.h"
#include "ropescope/pixel_map.h"
#include "ropescope/tiled_picture.h"

using namespace ropescope;

// 1920x1080 (aspect 1.778), 1..12 tiles: 2/1 is 0.222 away, 4/2 ties it at 8 tiles and wins
// (2,073,600 px > 0.5 * 448^2 * 8 = 802,816); 3/2 is 0.278, 5/3 would need 15 tiles. So 4 x 2
// tiles and a thumbnail: 9 x 256 = 2304 tokens.
TEST(TiledPicture, InternVlPicksTheClosestAspectRatio) {
  const TileGrid g = internvlTiles(1920, 1080);
  EXPECT_EQ(g.cols, 4);
  EXPECT_EQ(g.rows, 2);
  EXPECT_TRUE(g.thumbnail);
  EXPECT_EQ(g.tokenSide, 16);
  EXPECT_EQ(g.tileCount(), 9);
  // 448x448: (1,1) exact; (2,2) ties but 200,704 px is not > 401,408: one tile, no thumbnail.
  const TileGrid one = internvlTiles(448, 448);
  EXPECT_EQ(one.cols * one.rows, 1);
  EXPECT_FALSE(one.thumbnail);
  // 896x896: (2,2) wins the tie (802,816 > 401,408), (3,3) does not (802,816 <= 903,168).
  const TileGrid four = internvlTiles(896, 896);
  EXPECT_EQ(four.cols, 2);
  EXPECT_EQ(four.rows, 2);
  // Extreme aspect: 100x3000 (0.033) takes 1/12, the tallest grid allowed.
  const TileGrid tall = internvlTiles(100, 3000);
  EXPECT_EQ(tall.cols, 1);
  EXPECT_EQ(tall.rows, 12);
  // With at most 6 tiles 1920x1080 is 2/1 (4/2 is out of range).
  TileSettings six;
  six.maxTiles = 6;
  EXPECT_EQ(internvlTiles(1920, 1080, six).cols, 2);
  EXPECT_EQ(internvlTiles(1920, 1080, six).rows, 1);
}

// Over many sizes: no allowed grid is strictly closer in aspect ratio than the chosen one, and
// among equally close ones the choice is the processor's (the last whose tie test passes).
TEST(TiledPicture, NoAllowedGridIsCloserOverManySizes) {
  for (long long w : {1LL, 7LL, 99LL, 447LL, 448LL, 449LL, 1000LL, 1921LL, 4096LL, 9999LL})
    for (long long h : {1LL, 13LL, 300LL, 448LL, 777LL, 1080LL, 5000LL}) {
      const TileGrid g = internvlTiles(w, h);
      const double a = static_cast<double>(w) / h;
      const double chosen = std::abs(a - static_cast<double>(g.cols) / g.rows);
      for (int i = 1; i <= 12; ++i)
        for (int j = 1; i * j <= 12; ++j)
          EXPECT_GE(std::abs(a - static_cast<double>(i) / j), chosen) << w << "x" << h;
      EXPECT_LE(g.cols * g.rows, 12);
      EXPECT_EQ(g.thumbnail, g.cols * g.rows > 1);
    }
}

TEST(TiledPicture, LayoutItemExpandsToTilesAndThumbnail) {
  const Layout l = parseLayoutSpec("t3,tiled:1920x1080,t2");
  ASSERT_EQ(l.segments.size(), 3u);
  const Segment& s = l.segments[1];
  EXPECT_EQ(s.kind, SegmentKind::Image);
  EXPECT_EQ(s.frames, 9);
  EXPECT_EQ(s.rows, 16);
  EXPECT_EQ(s.cols, 16);
  EXPECT_EQ(l.tokenCount(), 3u + 2304u + 2u);
  EXPECT_EQ(formatLayoutSpec(l), "t3,tiled:1920x1080,t2");
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("tiled:1920x1080/1-6")), "tiled:1920x1080/1-6");
  EXPECT_EQ(parseLayoutSpec("tiled:1920x1080/1-6").segments[0].frames, 3);  // 2 x 1 + thumbnail
  EXPECT_EQ(parseLayoutSpec("tiled:448x448").segments[0].frames, 1);
  for (const char* bad :
       {"tiled:0x10", "tiled:10", "tiled:10x10/3-2", "tiled:10x10/1-65", "tiled:10x10/4"}) {
    try {
      parseLayoutSpec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "layout") << bad;
    }
  }
}

// 1920x1080 in 4 x 2 tiles: resized to 1792 x 896, so x scales by 1920/1792 and y by 1080/896.
// Tile 5 is column 1, row 1: its token (0, 0) covers resized [448, 476) x [448, 476), i.e.
// [480, 510) x [540, 573.75). The thumbnail's token (15, 15) covers [420, 448)^2 of 448 x 448,
// i.e. [1800, 1920) x [1012.5, 1080).
TEST(PixelMap, TiledRectanglesByHand) {
  const Layout l = parseLayoutSpec("t1,tiled:1920x1080");
  const std::vector<PixelCell> m = pixelMap(l);
  ASSERT_EQ(m.size(), 2304u);
  const PixelCell& a = m[5 * 256];
  EXPECT_EQ(a.token, 1u + 5 * 256);
  EXPECT_EQ(a.tile, 5);
  EXPECT_FALSE(a.thumbnail);
  EXPECT_DOUBLE_EQ(a.x0, 480.0);
  EXPECT_DOUBLE_EQ(a.x1, 510.0);
  EXPECT_DOUBLE_EQ(a.y0, 540.0);
  EXPECT_DOUBLE_EQ(a.y1, 573.75);
  const PixelCell& t = m.back();
  EXPECT_TRUE(t.thumbnail);
  EXPECT_EQ(t.tile, 8);
  EXPECT_DOUBLE_EQ(t.x0, 1800.0);
  EXPECT_DOUBLE_EQ(t.x1, 1920.0);
  EXPECT_DOUBLE_EQ(t.y0, 1012.5);
  EXPECT_DOUBLE_EQ(t.y1, 1080.0);
}

// Qwen grids: i2x3 (no file) is its own resized picture, 84 x 56 at factor 28; token (1, 2)
// covers [56, 84) x [28, 56). Qwen3-VL's factor 32 gives [64, 96) x [32, 64).
TEST(PixelMap, GridRectanglesByHand) {
  const Layout l = parseLayoutSpec("t1,i2x3");
  const PixelCell c = pixelMap(l).back();
  EXPECT_EQ(c.token, 6u);
  EXPECT_EQ(c.tile, -1);
  EXPECT_EQ(c.width, 84);
  EXPECT_EQ(c.height, 56);
  EXPECT_EQ(c.x0, 56.0);
  EXPECT_EQ(c.x1, 84.0);
  EXPECT_EQ(c.y0, 28.0);
  EXPECT_EQ(c.y1, 56.0);
  PixelMapSettings q3;
  q3.grid = imageGridPreset("qwen3-vl");
  const PixelCell d = pixelMap(l, q3).back();
  EXPECT_EQ(d.x0, 64.0);
  EXPECT_EQ(d.y1, 64.0);
}

// Temporal patches pair frames: v3x1x1 covers 0-1, 2-3, 4-5; a per-frame video (Qwen3-VL's
// v1x..#N blocks) counts its patches across blocks: the second block of item 0 is frames 2-3,
// item 1 starts again at 0. A temporal patch of 1 gives one frame each.
TEST(PixelMap, VideoFramesByTemporalPatch) {
  const std::vector<PixelCell> m = pixelMap(parseLayoutSpec("v3x1x1"));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[2].firstFrame, 4);
  EXPECT_EQ(m[2].lastFrame, 5);
  const std::vector<PixelCell> pf = pixelMap(parseLayoutSpec("v1x1x1#0,t1,v1x1x1#0,v1x1x1#1"));
  EXPECT_EQ(pf[1].firstFrame, 2);
  EXPECT_EQ(pf[1].lastFrame, 3);
  EXPECT_EQ(pf[2].firstFrame, 0);
  PixelMapSettings one;
  one.temporalPatch = 1;
  EXPECT_EQ(pixelMap(parseLayoutSpec("v3x1x1"), one)[2].lastFrame, 2);
  one.temporalPatch = 0;
  EXPECT_THROW(pixelMap(parseLayoutSpec("v3x1x1"), one), InputError);
}

// For many sizes (odd, extreme aspect ratios, one tile, many tiles): each tile's tokens and the
// thumbnail's tokens each cover the picture exactly once (areas sum to W*H, every rectangle
// inside the picture), and rectangles of a tile are the tile's cells in row-major order.
TEST(PixelMap, TilesAndThumbnailCoverThePictureOverManySizes) {
  for (const char* spec :
       {"tiled:1x1", "tiled:447x449", "tiled:1920x1080", "tiled:100x3000", "tiled:3000x100",
        "tiled:4096x4096", "tiled:999x1/1-4", "tiled:801x602/2-9"}) {
    const Layout l = parseLayoutSpec(spec);
    const TileGrid& g = l.segments[0].tiles;
    const std::vector<PixelCell> m = pixelMap(l);
    ASSERT_EQ(m.size(), static_cast<std::size_t>(g.tileCount()) * 256) << spec;
    double tileArea = 0, thumbArea = 0;
    for (const PixelCell& c : m) {
      EXPECT_GE(c.x0, 0.0);
      EXPECT_GE(c.y0, 0.0);
      EXPECT_LE(c.x1, g.width * (1 + 1e-12)) << spec;
      EXPECT_LE(c.y1, g.height * (1 + 1e-12)) << spec;
      (c.thumbnail ? thumbArea : tileArea) += (c.x1 - c.x0) * (c.y1 - c.y0);
    }
    const double area = static_cast<double>(g.width) * g.height;
    EXPECT_NEAR(tileArea, area, 1e-9 * area) << spec;
    if (g.thumbnail) EXPECT_NEAR(thumbArea, area, 1e-9 * area) << spec;
  }
}

// A picture file: the rectangles are in the file's pixels; the last token ends at its corner.
TEST(PixelMap, FileRectanglesEndAtThePictureCorner) {
  LayoutFileContext ctx;
  ctx.baseDir = ROPESCOPE_SAMPLES;
  const Layout l = parseLayoutSpec("t1,img:castle.png,t1", ctx);
  const Segment& s = l.segments[1];
  const std::vector<PixelCell> m = pixelMap(l);
  ASSERT_EQ(m.size(), s.tokenCount());
  EXPECT_EQ(m.back().width, s.source.width);
  EXPECT_NEAR(m.back().x1, s.source.width, 1e-9);
  EXPECT_NEAR(m.back().y1, s.source.height, 1e-9);
  EXPECT_NEAR(m[1].x0, static_cast<double>(s.source.width) / s.cols, 1e-9);
}
