// The research designs (MCA-LLaVA, MM-RoPE, OmniRoPE, IL-RoPE): ids against vectors
// worked out by hand from the repositories' rules (derivations in the comments), the published
// golden vectors of the reference notes, the plans they suggest, and PTD defined for each.
// (Cases A-E of ids_reference.txt for MM-RoPE/OmniRoPE/IL-RoPE are checked in tests/golden.)
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {
std::vector<double> axisRow(const PositionIds& ids, int a) {
  std::vector<double> out;
  for (const Id3& id : ids.ids) out.push_back(id[a]);
  return out;
}
std::string mapString(const PairTable& t) {
  std::string s;
  for (Axis a : t.axis) s += a == Axis::None ? '0' : axisName(a)[0];
  return s;
}
}  // namespace

// mca.py builds the 24x24 grid from an i+j block of 12x12 mirrored down and then right: cell
// (r, c) holds min(r, 23-r) + min(c, 23-c). For a 3x4 grid after 2 text tokens (s = 2):
// row distances min(r, 2-r) = 0,1,0; column distances min(c, 3-c) = 0,1,1,0, so
//   row 0: 2 3 3 2, row 1: 3 4 4 3, row 2: 2 3 3 2; the largest id is 4, text resumes at 5.
TEST(ResearchDesigns, McaIsTheDistanceToTheNearestCorner) {
  const PositionIds ids = findDesign("mca").ids(parseLayoutSpec("t2,i3x4,t2"), {});
  const std::vector<double> want = {0, 1, 2, 3, 3, 2, 3, 4, 4, 3, 2, 3, 3, 2, 5, 6};
  for (int a = 0; a < 3; ++a) EXPECT_EQ(axisRow(ids, a), want) << "axis " << a;
  EXPECT_EQ(ids.space, MetricSpace::Line);
  EXPECT_EQ(ids.ropeDelta, 7.0 - 16.0);
}

// The repo's own case: LLaVA-1.5's 576 image tokens (24x24) at img_token_pos s. Ids run
// s .. s+22 (centre cells 11/12 give 11+11), corners are s, and the text after the image starts
// at s + (H - 1) = s + 23 (mca.py: arange(img_token_pos + (H - 1), ...)).
TEST(ResearchDesigns, McaOnTheRepoGridResumesAtSPlusHMinusOne) {
  const int s = 35;
  const PositionIds ids = findDesign("mca").ids(parseLayoutSpec("t35,i24x24,t3"), {});
  auto at = [&](int r, int c) { return ids.ids[s + 24 * r + c][0]; };
  EXPECT_EQ(at(0, 0), s);
  EXPECT_EQ(at(23, 23), s);
  EXPECT_EQ(at(0, 23), s);
  EXPECT_EQ(at(11, 12), s + 22);
  EXPECT_EQ(at(12, 11), s + 22);
  EXPECT_EQ(at(5, 20), s + 5 + 3);
  EXPECT_EQ(ids.ids[s + 576][0], s + 23);
  EXPECT_EQ(ids.ids[s + 577][0], s + 24);
}

// Each frame of a video is one MCA image (ropescope's extension): a 2x2 frame has every cell at
// distance 0, so frame 0 is all s, frame 1 all s + 1, and text resumes at s + 2.
TEST(ResearchDesigns, McaStacksVideoFrames) {
  const PositionIds ids = findDesign("mca").ids(parseLayoutSpec("t1,v2x2x2,t1"), {});
  EXPECT_EQ(axisRow(ids, 0), (std::vector<double>{0, 1, 1, 1, 1, 2, 2, 2, 2, 3}));
}

// Published vectors (docs/reference-data.md#values-checked-outside-the-golden-files): MM-RoPE with
// position_scale 4,8,8 on the canonical 29-token sequence (5 text, <vs>, a 1x4x4 image = 2x2 LLM
// tokens, <ve>, 3 text, <vs>, video frame 1 (2x4x4 = one temporal patch of 2x2), <ve>, 2 text,
// <vs>, frame 2, <ve>, 1 text): image H = 6,6,14,14, W = 6,14,6,14, next text 15, rope_delta +15.
// The hand rule: off = 6 (tokens 0..5 before it), h = 6 + 8r, w = 6 + 8c, block max 14, next text
// 14 + 1.
TEST(ResearchDesigns, MmRopeGoldenCanonicalSequence) {
  const Layout l = parseLayoutSpec("t6,i2x2,t5,v1x2x2,t4,v1x2x2,t2");
  ASSERT_EQ(l.tokenCount(), 29u);
  const PositionIds ids = findDesign("mm-rope").ids(l, {});
  const std::vector<double> h = axisRow(ids, 1), w = axisRow(ids, 2);
  EXPECT_EQ(std::vector<double>(h.begin() + 6, h.begin() + 10),
            (std::vector<double>{6, 6, 14, 14}));
  EXPECT_EQ(std::vector<double>(w.begin() + 6, w.begin() + 10),
            (std::vector<double>{6, 14, 6, 14}));
  EXPECT_EQ(ids.ids[10], (Id3{15, 15, 15}));
  EXPECT_EQ(ids.ropeDelta, 15.0);
}

// A 2-frame video with scales (2, 3, 5) and temporal stride 1.5 after one text token (off = 1):
// t = 1 + 3k (1.5 * 2), h = 1 + 3r, w = 1 + 5c; block max = max(1+3, 1+3, 1+5) = 6, next text 7.
TEST(ResearchDesigns, MmRopeScalesEachAxis) {
  ParameterSet p;
  p.set("scale_t", 2);
  p.set("scale_h", 3);
  p.set("scale_w", 5);
  p.set("temporal_stride", 1.5);
  const PositionIds ids = findDesign("mm-rope").ids(parseLayoutSpec("t1,v2x2x2,t1"), p);
  EXPECT_EQ(axisRow(ids, 0), (std::vector<double>{0, 1, 1, 1, 1, 4, 4, 4, 4, 7}));
  EXPECT_EQ(axisRow(ids, 1), (std::vector<double>{0, 1, 1, 4, 4, 1, 1, 4, 4, 7}));
  EXPECT_EQ(axisRow(ids, 2), (std::vector<double>{0, 1, 6, 1, 6, 1, 6, 1, 6, 7}));
}

// OmniRoPE / IL-RoPE port: text (s,s,s); block (s + k*stride, r, c); s += max((T-1)*stride+1,
// H, W). Two text, a 3-frame 2x4 video with stride 2: t = 2, 4, 6 per frame, h = 0..1, w = 0..3;
// shift max(2*2+1, 2, 4) = 5, so the text after starts at 2 + 5 = 7.
TEST(ResearchDesigns, OmniAndIlRopeResetTheSpatialAxes) {
  ParameterSet p;
  p.set("temporal_stride", 2);
  for (const char* name : {"omnirope", "ilrope"}) {
    const PositionIds ids = findDesign(name).ids(parseLayoutSpec("t2,v3x2x4,t1"), p);
    ASSERT_EQ(ids.size(), 27u) << name;
    EXPECT_EQ(ids.ids[2], (Id3{2, 0, 0})) << name;
    EXPECT_EQ(ids.ids[2 + 7], (Id3{2, 1, 3})) << name;
    EXPECT_EQ(ids.ids[2 + 8], (Id3{4, 0, 0})) << name;
    EXPECT_EQ(ids.ids[2 + 23], (Id3{6, 1, 3})) << name;
    EXPECT_EQ(ids.ids[26], (Id3{7, 7, 7})) << name;
  }
}

TEST(ResearchDesigns, SuggestedPlans) {
  EXPECT_EQ(findDesign("omnirope").suggestedPlan(), "mrope");
  EXPECT_EQ(findDesign("ilrope").suggestedPlan(), "interleaved");
  EXPECT_EQ(findDesign("mm-rope").suggestedPlan(), "mm-rope");
  EXPECT_EQ(findDesign("mca").suggestedPlan(), "");
  EXPECT_EQ(findDesign("mrope").suggestedPlan(), "");
  // With their default sections the suggested plans are the published ones: OmniRoPE chunked
  // [16,24,24], IL-RoPE interleaved [24,20,20] (64 pairs).
  FrequencySpec f;
  f.plan = findDesign("omnirope").suggestedPlan();
  EXPECT_EQ(mapString(resolvePairs(f)),
            std::string(16, 't') + std::string(24, 'h') + std::string(24, 'w'));
  f.plan = findDesign("ilrope").suggestedPlan();
  std::string thw;
  for (int i = 0; i < 20; ++i) thw += "thw";
  EXPECT_EQ(mapString(resolvePairs(f)), thw + "tttt");
}

// Pair j of MM-RoPE rotates with (t,t,h,w,h,w,h,w)[j mod 8]; for 64 pairs t 16, h 24, w 24.
// With 20 pairs (rotary dim 40): tthwhwhw tthwhwhw tthw.
TEST(ResearchDesigns, MmRopePlanCyclesEightPairs) {
  FrequencySpec f;
  f.plan = "mm-rope";
  f.rotary.rotaryDim = 40;
  EXPECT_EQ(mapString(resolvePairs(f)), "tthwhwhwtthwhwhwtthw");
  f.sections = {4, 8, 8};
  EXPECT_THROW(resolvePairs(f), InputError);  // the plan takes no sections
}

TEST(ResearchDesigns, PtdIsDefinedForEach) {
  const Layout l = parseLayoutSpec("t5,i6x6,t4,v3x4x4,t3");
  for (const char* name : {"mca", "mm-rope", "omnirope", "ilrope"}) {
    const PositionIds ids = findDesign(name).ids(l, {});
    const PtdResult ptd = perTokenDistance(ids);
    EXPECT_TRUE(ptd.defined()) << name << ": " << ptd.undefinedReason;
    EXPECT_TRUE(std::isfinite(ptd.ptd)) << name;
  }
}

TEST(ResearchDesigns, BadParametersAreRefused) {
  ParameterSet p;
  p.set("scale_h", 0);
  EXPECT_THROW(findDesign("mm-rope").ids(parseLayoutSpec("t1,i2x2"), p), InputError);
  ParameterSet q;
  q.set("temporal_stride", 1);
  EXPECT_THROW(findDesign("mca").ids(parseLayoutSpec("t1,i2x2"), q), InputError);
}
