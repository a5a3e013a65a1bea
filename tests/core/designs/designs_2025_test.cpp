// The 2025 designs (TAD-RoPE in its two definitions, PyPE, Partial YaRN): ids against values
// worked out by hand on small grids (derivations in the comments), PyPE against the
// repository's rectangle-filling rule on its 24x24 grid, and Partial YaRN's two position tracks
// against the repository's per-pair rule through the mrope plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/pixel_map.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {
std::vector<double> idsOnAxis(const PositionIds& ids, int a) {
  std::vector<double> out;
  for (const Id3& id : ids.ids) out.push_back(id[a]);
  return out;
}
ParameterSet params(std::initializer_list<std::pair<const char*, double>> kv) {
  ParameterSet p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}
}  // namespace

// TC-LLaVA, n + γ·f: t2,v2x2x3,t1 with γ = 1. The block starts at off = 2 and has 6 tokens a
// frame: frame 0 is 2..7 (f = 0), frame 1 is 2+6+1 .. 2+11+1 = 9..14; text resumes at 15.
TEST(Designs2025, TadTcAddsGammaTimesTheFrame) {
  const Layout l = parseLayoutSpec("t2,v2x2x3,t1");
  const PositionIds ids = findDesign("tad-tc").ids(l, {});
  const std::vector<double> want = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
  for (int a = 0; a < 3; ++a) EXPECT_EQ(idsOnAxis(ids, a), want);
  EXPECT_EQ(ids.space, MetricSpace::Line);
  EXPECT_EQ(ids.ropeDelta, 16.0 - 15.0);
  // γ = 2.5: frame 1 is 10.5..15.5, text 16.5.
  const PositionIds g = findDesign("tad-tc").ids(l, params({{"gamma", 2.5}}));
  EXPECT_EQ(g.ids[8][0], 10.5);
  EXPECT_EQ(g.ids[13][0], 15.5);
  EXPECT_EQ(g.ids[14][0], 16.5);
  // The running-index reading: text after the video keeps n = 14.
  const PositionIds r = findDesign("tad-tc").ids(l, params({{"text_resume", 1}}));
  EXPECT_EQ(r.ids[13][0], 14.0);
  EXPECT_EQ(r.ids[14][0], 14.0);
  EXPECT_EQ(r.ropeDelta, 0.0);
}

// γ = 0, or a picture (one frame), is the running index: `hard`.
TEST(Designs2025, TadTcWithoutFramesIsHard) {
  const Layout l = parseLayoutSpec("t3,i3x4,t2,v3x2x2,t1");
  EXPECT_EQ(findDesign("tad-tc").ids(l, params({{"gamma", 0}})).ids,
            findDesign("hard").ids(l, {}).ids);
  const Layout pic = parseLayoutSpec("t3,i3x4,t2");
  EXPECT_EQ(findDesign("tad-tc").ids(pic, {}).ids, findDesign("hard").ids(pic, {}).ids);
}

// VideoRoPE's time index: t2,v3x1x2,t1 -> frame f of the block at s = 2 is at 2 + f, text at 5:
// 0 1 | 2 2 3 3 4 4 | 5. With the running index added (the repository's tad_rope): + i, so
// 0 2 | 4 5 7 8 10 11 | 13; the next decode id is 6 (time) + 9 (running) = 15 = 9 + rope_delta.
TEST(Designs2025, TadVideoRopeIsTheFrameIndex) {
  const Layout l = parseLayoutSpec("t2,v3x1x2,t1");
  const PositionIds ids = findDesign("tad-videorope").ids(l, {});
  EXPECT_EQ(idsOnAxis(ids, 0), (std::vector<double>{0, 1, 2, 2, 3, 3, 4, 4, 5}));
  EXPECT_EQ(idsOnAxis(ids, 2), idsOnAxis(ids, 0));
  EXPECT_EQ(ids.ropeDelta, 6.0 - 9.0);
  const PositionIds sum = findDesign("tad-videorope").ids(l, params({{"add_running_index", 1}}));
  EXPECT_EQ(idsOnAxis(sum, 1), (std::vector<double>{0, 2, 4, 5, 7, 8, 10, 11, 13}));
  EXPECT_EQ(sum.ropeDelta, 15.0 - 9.0);
  // An image is one frame: all its tokens at s.
  const PositionIds img = findDesign("tad-videorope").ids(parseLayoutSpec("t1,i2x2,t1"), {});
  EXPECT_EQ(idsOnAxis(img, 0), (std::vector<double>{0, 1, 1, 1, 1, 2}));
  // The sum doubles text ids even with no picture: why it is off by default.
  const PositionIds text =
      findDesign("tad-videorope").ids(parseLayoutSpec("t4"), params({{"add_running_index", 1}}));
  EXPECT_EQ(idsOnAxis(text, 0), (std::vector<double>{0, 2, 4, 6}));
}

// PyPE on t1,i4x5,t1: rings min(r, c, 3-r, 4-c) are 0 on the border and 1 on the 2x3 inside;
// ids s - 1 + (1 + ring) with s = 1, text at 1 + 1 + 1 = 3.
TEST(Designs2025, PypeIndexesRingsFromTheBorderIn) {
  const PositionIds ids = findDesign("pype").ids(parseLayoutSpec("t1,i4x5,t1"), {});
  const std::vector<double> want = {0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1,
                                    1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 3};
  for (int a = 0; a < 3; ++a) EXPECT_EQ(idsOnAxis(ids, a), want);
  EXPECT_EQ(ids.ropeDelta, 4.0 - 22.0);
}

// 6x6 at s = 0: rings 0, 1, 2 (centre 2x2). Layer 1 with interval 1 merges ring 2 into ring 1
// (cap 1), text at 2; layer 5 merges everything (cap 0): all at 0, text at 1. Interval 2 at
// layer 3: floor(3/2) = 1 ring merged, as layer 1 with interval 1.
TEST(Designs2025, PypeDescentMergesTheInnerRings) {
  const Layout l = parseLayoutSpec("i6x6,t1");
  auto at = [](const PositionIds& ids, int r, int c) { return ids.ids[6 * r + c][0]; };
  const PositionIds l0 = findDesign("pype").ids(l, {});
  EXPECT_EQ(at(l0, 0, 0), 0.0);
  EXPECT_EQ(at(l0, 1, 4), 1.0);
  EXPECT_EQ(at(l0, 2, 3), 2.0);
  EXPECT_EQ(l0.ids[36][0], 3.0);
  const PositionIds l1 = findDesign("pype").ids(l, params({{"layer", 1}}));
  EXPECT_EQ(at(l1, 2, 3), 1.0);
  EXPECT_EQ(at(l1, 1, 1), 1.0);
  EXPECT_EQ(l1.ids[36][0], 2.0);
  EXPECT_EQ(findDesign("pype").ids(l, params({{"layer", 3}, {"descent_interval", 2}})).ids, l1.ids);
  const PositionIds l5 = findDesign("pype").ids(l, params({{"layer", 5}}));
  for (int k = 0; k < 36; ++k) EXPECT_EQ(l5.ids[k][0], 0.0);
  EXPECT_EQ(l5.ids[36][0], 1.0);
}

// The repository's rule on its 24x24 grid (LLaVA-1.5's 576 tokens) at layer L with jump_num j:
// top = min(L / j + 1, 12), len = 13 - top; a zero grid gets the value p on rows and columns
// p .. 23-p for p = 1 .. len-1, in that order; image ids are img_pos + grid, the text after
// starts at img_pos + len.
TEST(Designs2025, PypeMatchesTheRepositoryFillOn24x24) {
  const int s = 5;
  const Layout l = parseLayoutSpec("t5,i24x24,t2");
  for (int jump : {1, 2, 4})
    for (int layer : {0, 1, 3, 8, 31}) {
      const int top = std::min(layer / jump + 1, 12);
      const int len = 13 - top;
      std::vector<int> grid(576, 0);
      for (int p = 1; p < len; ++p)
        for (int r = p; r < 24 - p; ++r)
          for (int c = p; c < 24 - p; ++c) grid[24 * r + c] = p;
      const PositionIds ids =
          findDesign("pype").ids(l, params({{"layer", layer}, {"descent_interval", jump}}));
      for (int k = 0; k < 576; ++k)
        ASSERT_EQ(ids.ids[s + k][0], s + grid[k]) << "layer " << layer << " jump " << jump;
      EXPECT_EQ(ids.ids[s + 576][0], s + len);
    }
}

// A video: each frame one PyPE picture. v2x3x3 after t1: cap 1 (ring 1 is the centre), frame 0
// at 1 + ring, frame 1 at 3 + ring, text at 5.
TEST(Designs2025, PypeStacksVideoFrames) {
  const PositionIds ids = findDesign("pype").ids(parseLayoutSpec("t1,v2x3x3,t1"), {});
  EXPECT_EQ(ids.ids[1][0], 1.0);
  EXPECT_EQ(ids.ids[1 + 4][0], 2.0);
  EXPECT_EQ(ids.ids[1 + 9][0], 3.0);
  EXPECT_EQ(ids.ids[1 + 13][0], 4.0);
  EXPECT_EQ(ids.ids[19][0], 5.0);
}

// Partial YaRN with A = 4 on t2,a7,t2: t is the running index 0..10; h = w squeeze the 7
// audio tokens onto 4 positions, 2 + j·3/6 = 2, 2.5, ..., 5, and text after at 2 + 4 = 6, 7.
TEST(Designs2025, PartialYarnSqueezesLongAudioOnTheSecondTrack) {
  const Layout l = parseLayoutSpec("t2,a7,t2");
  const PositionIds ids = findDesign("partial-yarn").ids(l, params({{"audio_context", 4}}));
  EXPECT_EQ(idsOnAxis(ids, 0), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  const std::vector<double> squeezed = {0, 1, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7};
  EXPECT_EQ(idsOnAxis(ids, 1), squeezed);
  EXPECT_EQ(idsOnAxis(ids, 2), squeezed);
  EXPECT_EQ(ids.space, MetricSpace::Space);
  EXPECT_EQ(ids.tokens[2].modality, Modality::Audio);
  EXPECT_EQ(ids.tokens[8].frame, 6);
  EXPECT_EQ(ids.ropeDelta, 0.0);
  // Audio shorter than A, or exactly A, is left alone: the ids are hard's.
  for (const char* spec : {"t2,a3,t2", "t2,a4,t2"}) {
    const Layout s = parseLayoutSpec(spec);
    EXPECT_EQ(findDesign("partial-yarn").ids(s, params({{"audio_context", 4}})).ids,
              findDesign("hard").ids(s, {}).ids)
        << spec;
  }
}

// The repository's rotary: pairs below interpolation_start_dim S use the plain positions, the
// rest the squeezed ones. Through the mrope plan with sections S,R1,R2 each pair's position is
// the id of its axis; checked against that rule for every pair and token (64 pairs, S = 32,
// the README's example, and S = 0, its "partial PI").
TEST(Designs2025, PartialYarnThroughTheMropePlanIsThePerPairRule) {
  const Layout l = parseLayoutSpec("t3,a1000,t4");
  const PositionIds ids = findDesign("partial-yarn").ids(l, {});
  EXPECT_EQ(findDesign("partial-yarn").suggestedPlan(), "mrope");
  for (int start : {32, 0}) {
    FrequencySpec f;
    f.plan = "mrope";
    f.sections = {start, (64 - start) / 2, (64 - start) / 2};
    const PairTable t = resolvePairs(f);
    ASSERT_EQ(t.axis.size(), 64u);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const double plain = static_cast<double>(i);
      double squeezed = plain;
      if (i >= 3 && i < 1003) squeezed = 3 + (i - 3) * 749.0 / 999.0;
      if (i >= 1003) squeezed = 3 + 750 + (i - 1003);
      for (int p = 0; p < 64; ++p) {
        const double want = p < start ? plain : squeezed;
        const int a = t.axis[p] == Axis::T ? 0 : t.axis[p] == Axis::H ? 1 : 2;
        ASSERT_NEAR(ids.ids[i][a], want, 1e-9) << "token " << i << " pair " << p;
      }
    }
  }
}

TEST(Designs2025, PtdIsDefinedForEach) {
  const Layout l = parseLayoutSpec("t5,i6x6,t4,v3x4x4,t3,a20,t2");
  for (const char* name : {"tad-tc", "tad-videorope", "pype", "partial-yarn"}) {
    const PositionIds ids = findDesign(name).ids(l, {});
    const PtdResult ptd = perTokenDistance(ids);
    EXPECT_TRUE(ptd.defined()) << name << ": " << ptd.undefinedReason;
  }
}

TEST(Designs2025, BadParametersAreRefused) {
  const Layout l = parseLayoutSpec("t1,i2x2");
  EXPECT_THROW(findDesign("tad-tc").ids(l, params({{"gamma", -1}})), InputError);
  EXPECT_THROW(findDesign("pype").ids(l, params({{"descent_interval", 0}})), InputError);
  EXPECT_THROW(findDesign("pype").ids(l, params({{"layer", 2.5}})), InputError);
  EXPECT_THROW(findDesign("partial-yarn").ids(l, params({{"audio_context", 0}})), InputError);
  EXPECT_THROW(findDesign("tad-videorope").ids(l, params({{"add_running_index", 2}})), InputError);
}

// Thumbnail inheritance on t1,tiled:1920x1080 (4 x 2 tiles of 16 x 16, then the thumbnail), off
// = 1. The thumbnail counts 1 + 16r + c. A tile token takes the thumbnail cell under its centre:
// tile 0 cell (15, 15) -> (floor(15.5/2), floor(15.5/4)) = (7, 3), id 116; tile 5 (column 1,
// row 1) cell (0, 0) covers resized [448, 476)^2 of 1792 x 896, i.e. thumbnail x 112..119,
// y 224..238: cell (8, 4), id 133; tile 7 cell (15, 15) -> (15, 15), id 256. Text at 257.
TEST(Designs2025, ThumbInheritTakesTheCoveringThumbnailId) {
  const PositionIds ids =
      findDesign("thumb-inherit").ids(parseLayoutSpec("t1,tiled:1920x1080,t1"), {});
  auto at = [&](int tile, int r, int c) { return ids.ids[1 + tile * 256 + r * 16 + c][0]; };
  EXPECT_EQ(at(0, 0, 0), 1.0);
  EXPECT_EQ(at(0, 15, 15), 116.0);
  EXPECT_EQ(at(5, 0, 0), 133.0);
  EXPECT_EQ(at(7, 15, 15), 256.0);
  EXPECT_EQ(at(8, 3, 9), 1.0 + 3 * 16 + 9);
  EXPECT_EQ(ids.ids.back()[0], 257.0);
  EXPECT_EQ(ids.ropeDelta, 258.0 - ids.size());
  // Every tile token's id is a thumbnail id whose cell overlaps it in the pixel map.
  const std::vector<PixelCell> m = pixelMap(parseLayoutSpec("t1,tiled:1920x1080,t1"));
  for (int k = 0; k < 8 * 256; ++k) {
    const PixelCell& thumb = m[8 * 256 + static_cast<int>(ids.ids[1 + k][0] - 1)];
    const double cx = (m[k].x0 + m[k].x1) / 2, cy = (m[k].y0 + m[k].y1) / 2;
    ASSERT_TRUE(thumb.thumbnail);
    ASSERT_TRUE(cx >= thumb.x0 && cx < thumb.x1 && cy >= thumb.y0 && cy < thumb.y1) << k;
  }
  // One tile, no thumbnail: the running index, as hard.
  const Layout one = parseLayoutSpec("t1,tiled:448x448,t1");
  EXPECT_EQ(findDesign("thumb-inherit").ids(one, {}).ids, findDesign("hard").ids(one, {}).ids);
}
