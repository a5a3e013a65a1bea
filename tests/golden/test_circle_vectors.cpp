// Golden Circle-RoPE data (data/circle_vectors.txt, docs/reference-data.md#circle_vectorstxt):
// sequence ids and rope_delta, per-image ring offsets, M-RoPE pair angles, and the PTD reproduction
// of the paper.
//
// Golden values deliberately NOT checked:
//   * none: the SA / GA / theta columns are checked through circleProjection; the spatial2d rows
//   whose text ids are not produced by any design (text at
//     (10,10).., the a-scan) are checked on hand-built ids through perTokenDistance.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "golden_checks.h"
#include "golden_reader.h"
#include "ropescope/circle_projection.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

namespace golden {
namespace {

using ropescope::MetricSpace;
using ropescope::Modality;
using ropescope::PositionIds;

Params circleParams(double alpha, double radius, double dff, bool centre = true) {
  return {
      {"alpha", alpha}, {"radius_mode", 0}, {"radius", radius},     {"centre", centre ? 1.0 : 0.0},
      {"dff", dff},     {"no_circle", 0},   {"move_to_positive", 0}};
}

std::string layoutSpec(int before, const std::string& visual, int after) {
  std::string s;
  if (before > 0) s += "t" + std::to_string(before) + ",";
  s += visual;
  if (after > 0) s += ",t" + std::to_string(after);
  return s;
}

// Ids built by hand for the PTD rows whose layout no design produces.
struct HandIds {
  PositionIds ids;
  explicit HandIds(MetricSpace space) {
    ids.design = "hand-built";
    ids.space = space;
  }
  void image(double t, double h, double w, int row, int col) {
    ids.ids.push_back({t, h, w});
    ropescope::TokenInfo info;
    info.modality = Modality::Image;
    info.segment = 0;
    info.frame = 0;
    info.row = row;
    info.col = col;
    ids.tokens.push_back(info);
  }
  void text(double p) {
    ids.ids.push_back({p, p, p});
    ropescope::TokenInfo info;
    info.segment = 1;
    ids.tokens.push_back(info);
  }
};

// 3x3 image on the (row, col) grid starting at `first`, then 5 text tokens on the diagonal.
PositionIds spatialHand(double first, double textStart) {
  HandIds b(MetricSpace::Plane);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) b.image(0, first + r, first + c, r, c);
  for (int j = 0; j < 5; ++j) b.text(textStart + j);
  return b.ids;
}

double ptdOf(const PositionIds& ids) {
  const auto fast = ropescope::perTokenDistance(ids);
  const auto ref = ropescope::perTokenDistanceReference(ids);
  EXPECT_TRUE(near(fast.ptd, ref.ptd, 1e-13, 1e-12)) << "perTokenDistance vs its reference";
  return fast.ptd;
}

double ptdOf(const std::string& design, const std::string& spec, const Params& p = {}) {
  SCOPED_TRACE(describe(design, spec, p));
  return ptdOf(computeIds(design, spec, p));
}

// ---- sequences -------------------------------------------------------------------------------

void expectIdSet(const PositionIds& ids, const IdSet& g, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(g.present) << "golden [" << what << "] block missing";
  ASSERT_EQ(ids.size(), g.rows.size());
  for (std::size_t i = 0; i < g.rows.size(); ++i) {
    const IdRow& r = g.rows[i];
    ASSERT_EQ(r.index, static_cast<int>(i));
    const Modality want = r.kind == "text" ? Modality::Text : Modality::Image;
    EXPECT_EQ(ids.tokens[i].modality, want) << "token " << i;
    for (int a = 0; a < 3; ++a)
      EXPECT_TRUE(matches(ids.ids[i][a], r.thw[a])) << "token " << i << " axis "
                                                    << "thw"[a];
  }
  EXPECT_TRUE(matches(ids.ropeDelta, g.ropeDelta)) << "rope_delta";
}

class CircleSequenceGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CircleSequenceGolden, CircleAndMropeIdsMatchGolden) {
  const golden::CircleSequence* s = circleVectors().findSequence(GetParam());
  ASSERT_NE(s, nullptr) << "golden sequence " << GetParam() << " missing";
  ASSERT_TRUE(s->moveToOrigin);
  const Params p = circleParams(s->alpha, s->radius, s->dff);
  expectIdSet(computeIds("circle", s->spec, p), s->circle, describe("circle", s->spec, p));
  expectIdSet(computeIds("mrope", s->spec), s->mrope, describe("mrope", s->spec, {}));
}

const std::vector<std::string> kSequences = {"t1,i2x2,t1", "t1,i3x4,t1", "t5,i3x3,t2,i1x1,t1"};

INSTANTIATE_TEST_SUITE_P(Golden, CircleSequenceGolden, ::testing::ValuesIn(kSequences),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n;
                           for (char c : info.param)
                             n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(CircleVectorsFile, EverySequenceIsChecked) {
  const auto& seqs = circleVectors().sequences;
  EXPECT_EQ(seqs.size(), kSequences.size());
  for (const auto& s : seqs)
    EXPECT_NE(std::find(kSequences.begin(), kSequences.end(), s.spec), kSequences.end())
        << "golden sequence " << s.spec << " not checked";
}

// docs/designs.md#circle-rope-worked-values: the cone makes each text token equidistant from the
// ring.
TEST(CircleSequenceDoc, TextTokensEquidistantFromRing_2x2) {
  const PositionIds ids = computeIds("circle", "t1,i2x2,t1", circleParams(0.5, 10, 0));
  ASSERT_EQ(ids.size(), 6u);
  for (double d : ropescope::distancesToVisual(ids, 0)) EXPECT_NEAR(d, std::sqrt(103.0), 1e-9);
  for (double d : ropescope::distancesToVisual(ids, 5)) EXPECT_NEAR(d, 18.355464, 0.5e-6);
}

// ---- per-image offsets ---------------------------------------------------------------------

struct OffsetKey {
  int rows, cols;
  double alpha, radius, dff;
  const char* name;
};

const std::vector<OffsetKey> kOffsetBlocks = {
    {2, 2, 0.5, 10, 0, "g2x2"},          {3, 4, 0.5, 10, 0, "g3x4"},
    {4, 3, 0.5, 10, 0, "g4x3"},          {3, 3, 0.5, 10, 0, "g3x3"},
    {1, 1, 0.5, 10, 0, "g1x1"},          {1, 3, 0.5, 10, 0, "g1x3"},
    {3, 1, 0.5, 10, 0, "g3x1"},          {1, 4, 0.5, 10, 0, "g1x4"},
    {2, 3, 0.5, 10, 0, "g2x3"},          {2, 2, 0.5, 0.5, 0, "g2x2_radius0_5"},
    {2, 2, 0.0, 10, 0, "g2x2_alpha0"},   {2, 2, 1.0, 10, 0, "g2x2_alpha1"},
    {2, 2, 0.5, 10, 0.3, "g2x2_dff0_3"},
};

const OffsetBlock* findBlock(const OffsetKey& k) {
  for (const auto& b : circleVectors().offsets)
    if (b.rows == k.rows && b.cols == k.cols && b.alpha == k.alpha && b.radius == k.radius &&
        b.dff == k.dff && b.method == "circle")
      return &b;
  return nullptr;
}

// Offsets are relative to the ring centre s; in "t1,iHxW,t1" the centre is s = 1.
void expectOffsets(const OffsetBlock& b, const Params& p) {
  const std::string spec = "t1,i" + std::to_string(b.rows) + "x" + std::to_string(b.cols) + ",t1";
  SCOPED_TRACE(describe("circle", spec, p) + " vs " + b.where);
  const PositionIds ids = computeIds("circle", spec, p);
  ASSERT_EQ(ids.size(), b.tokens.size() + 2);
  ASSERT_EQ(static_cast<int>(b.tokens.size()), b.rows * b.cols);
  for (const auto& r : b.tokens) {
    const std::size_t i = 1 + r.k;
    EXPECT_EQ(ids.tokens[i].row, r.h) << "k=" << r.k;
    EXPECT_EQ(ids.tokens[i].col, r.w) << "k=" << r.k;
    for (int a = 0; a < 3; ++a)
      EXPECT_TRUE(matches(ids.ids[i][a] - 1.0, r.thw[a])) << "k=" << r.k << " axis "
                                                          << "thw"[a];
  }
}

class CircleOffsets : public ::testing::TestWithParam<OffsetKey> {};

TEST_P(CircleOffsets, RingOffsetsMatchGolden) {
  const OffsetKey& k = GetParam();
  const OffsetBlock* b = findBlock(k);
  ASSERT_NE(b, nullptr) << "golden offsets block " << k.name << " missing";
  expectOffsets(*b, circleParams(k.alpha, k.radius, k.dff));
}

INSTANTIATE_TEST_SUITE_P(Golden, CircleOffsets, ::testing::ValuesIn(kOffsetBlocks),
                         [](const ::testing::TestParamInfo<OffsetKey>& info) {
                           return std::string(info.param.name);
                         });

// The angle columns: spatial-origin angle, grid-index angle and their mix, per cell.
TEST_P(CircleOffsets, AnglesMatchGolden) {
  const OffsetKey& k = GetParam();
  const OffsetBlock* b = findBlock(k);
  ASSERT_NE(b, nullptr) << "golden offsets block " << k.name << " missing";
  ropescope::CircleOptions o;
  o.alpha = k.alpha;
  o.radius = k.radius;
  o.dff = k.dff;
  const auto cells = ropescope::circleProjection(k.rows, k.cols, o);
  ASSERT_EQ(cells.size(), b->tokens.size());
  for (const auto& r : b->tokens) {
    const ropescope::CircleCell& c = cells[static_cast<std::size_t>(r.k)];
    EXPECT_TRUE(matches(c.sa, r.sa)) << k.name << " k=" << r.k << " SA " << c.sa;
    EXPECT_TRUE(matches(c.ga, r.ga)) << k.name << " k=" << r.k << " GA " << c.ga;
    EXPECT_TRUE(matches(c.theta, r.theta)) << k.name << " k=" << r.k << " theta " << c.theta;
  }
}

TEST(CircleVectorsFile, EveryOffsetBlockIsChecked) {
  const auto& blocks = circleVectors().offsets;
  EXPECT_EQ(blocks.size(), kOffsetBlocks.size());
  for (const auto& b : blocks) {
    bool found = false;
    for (const auto& k : kOffsetBlocks) found |= findBlock(k) == &b;
    EXPECT_TRUE(found) << "golden offsets block at " << b.where << " not checked";
  }
}

// the golden R=0.5 ring is auto R (docs/designs.md#circle-rope-worked-values): with centring, auto
// radius on a 2x2 grid is max(W-1, H-1)/2 = 0.5, so the auto mode must land on the same golden
// ring.
TEST(CircleOffsetsAuto, AutoRadiusOn2x2EqualsGoldenRadiusHalf) {
  const OffsetBlock* b = findBlock({2, 2, 0.5, 0.5, 0, "g2x2_radius0_5"});
  ASSERT_NE(b, nullptr);
  const Params p = {{"alpha", 0.5}, {"radius_mode", 1}, {"auto_k", 1},          {"centre", 1},
                    {"dff", 0},     {"no_circle", 0},   {"move_to_positive", 0}};
  expectOffsets(*b, p);
}

// docs/designs.md#circle-rope-worked-values: with R = auto the 1x1 radius is 0 and the token sits
// at (s, s, s).
TEST(CircleOffsetsAuto, AutoRadiusCollapses1x1OntoAxis) {
  const Params p = {{"alpha", 0.5}, {"radius_mode", 1}, {"auto_k", 1}, {"centre", 1}, {"dff", 0}};
  const PositionIds ids = computeIds("circle", "t1,i1x1,t1", p);
  ASSERT_EQ(ids.size(), 3u);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(ids.ids[1][a], 1.0, 1e-12);
}

// ---- M-RoPE pair angles ----------------------------------------------------------------------

TEST(MropeAngles, PairPhasesMatchGolden) {
  const auto& samples = circleVectors().angles;
  ASSERT_EQ(samples.size(), 2u) << "(1,1,1) and (1,2,3)";
  ropescope::FrequencySpec fs;
  fs.plan = "mrope";
  fs.rotary.headDim = 128;
  fs.rotary.base = 1e6;
  fs.sections = {16, 24, 24};
  const auto pairs = ropescope::resolvePairs(fs);
  for (const auto& s : samples) {
    const auto phases = ropescope::pairPhases(pairs, {s.delta[0], s.delta[1], s.delta[2]});
    ASSERT_EQ(phases.size(), 64u);
    ASSERT_EQ(s.pairs.size(), 6u);
    for (const auto& [j, v] : s.pairs)
      EXPECT_TRUE(matches(phases[j], v))
          << "delta (" << s.delta[0] << "," << s.delta[1] << "," << s.delta[2] << ") pair " << j;
  }
}

// ---- PTD reproduction -------------------------------------------------------------------------

const PtdLine& ptdLine(const std::string& prefix) {
  const PtdLine* l = circleVectors().findPtd(prefix);
  if (!l) throw std::runtime_error("golden PTD line '" + prefix + "' missing");
  return *l;
}

TEST(PtdReproduction, HardIsTwentyNinths) {
  const PositionIds ids = computeIds("hard", "i3x3,t5");
  EXPECT_EQ(ids.space, MetricSpace::Line);
  const auto r = ropescope::perTokenDistance(ids);
  EXPECT_EQ(r.nText, 5u);
  EXPECT_EQ(r.nVisual, 9u);
  EXPECT_NEAR(r.ptd, 20.0 / 9.0, 1e-12);
  EXPECT_TRUE(matches(ptdOf(ids), ptdLine("hard (image 1..9, text 10..14)").value));
}

TEST(PtdReproduction, UnorderedIsZero) {
  const double ptd = ptdOf("unordered", "i3x3,t5");
  EXPECT_TRUE(matches(ptd, ptdLine("unordered").value));
  EXPECT_LT(std::fabs(ptd), 1e-12);
}

TEST(PtdReproduction, SpatialFig1cLabels) {
  const PositionIds ids = computeIds("spatial", "i3x3,t5");
  EXPECT_EQ(ids.space, MetricSpace::Plane);
  EXPECT_TRUE(matches(ptdOf(ids), ptdLine("spatial2d, Fig.1(c) labels").value));
}

TEST(PtdReproduction, SpatialWithHardTextIds) {
  EXPECT_TRUE(matches(ptdOf(spatialHand(1, 10)), ptdLine("spatial2d, img [1..3]^2").value));
  EXPECT_TRUE(matches(ptdOf(spatialHand(0, 10)), ptdLine("spatial2d, img [0..2]^2").value));
}

TEST(PtdReproduction, Mrope3d) {
  const PositionIds ids = computeIds("mrope", "i3x3,t5");
  EXPECT_EQ(ids.space, MetricSpace::Space);
  EXPECT_TRUE(matches(ptdOf(ids), ptdLine("mrope3d (Qwen t,h,w)").value));
}

TEST(PtdReproduction, CircleIsZero) {
  const double ptd = ptdOf("circle", "i3x3,t5", circleParams(0.5, 10, 0));
  EXPECT_TRUE(matches(ptd, ptdLine("circle (alpha=0.5, R=10)").value));
  EXPECT_LT(std::fabs(ptd), 1e-12);
}

TEST(PtdReproduction, SpatialScanOverTextStart) {
  const auto& scan = circleVectors().spatialScan;
  ASSERT_EQ(scan.size(), 18u) << "a = 3..20";
  for (const auto& [a, v] : scan) EXPECT_TRUE(matches(ptdOf(spatialHand(0, a)), v)) << "a=" << a;
  // a = 3 is exactly what the spatial design produces for "i3x3,t5".
  EXPECT_NEAR(ptdOf(spatialHand(0, 3)), ptdOf("spatial", "i3x3,t5"), 1e-12);
}

TEST(PtdReproduction, TextSplitsBeforeAfter) {
  const auto& splits = circleVectors().splits;
  ASSERT_EQ(splits.size(), 6u) << "before = 0..5";
  for (const auto& s : splits) {
    const std::string spec = layoutSpec(s.before, "i3x3", s.after);
    SCOPED_TRACE(spec);
    EXPECT_TRUE(matches(ptdOf("hard", spec), s.hard)) << "hard";
    EXPECT_NEAR(ptdOf("hard", spec), 20.0 / 9.0, 1e-12) << "hard";
    EXPECT_TRUE(matches(ptdOf("spatial", spec), s.spatial2d)) << "spatial2d";
    EXPECT_TRUE(matches(ptdOf("mrope", spec), s.mrope3d)) << "mrope3d";
    EXPECT_LT(std::fabs(ptdOf("circle", spec, circleParams(0.5, 10, 0))), 1e-12) << "circle";
    EXPECT_LT(std::fabs(s.circle.value), 1e-12) << "golden circle value";
  }
}

// Fig. 1(d) of the paper: no_circle + plane rotation + move_to_positive with offset 1 on 3x3.
TEST(PtdReproduction, Fig1dPlanarGrid) {
  const auto& cv = circleVectors();
  ASSERT_EQ(cv.fig1d.size(), 9u);
  ASSERT_TRUE(cv.hasFig1dPtd);
  const Params p = {
      {"alpha", 0.5}, {"radius_mode", 0}, {"radius", 10},          {"centre", 1},
      {"dff", 0},     {"no_circle", 1},   {"move_to_positive", 2}, {"positive_offset", 1}};
  const PositionIds img = computeIds("circle", "i3x3", p);
  ASSERT_EQ(img.size(), 9u);
  for (int k = 0; k < 9; ++k)
    for (int a = 0; a < 3; ++a)  // golden prints (w, h, t)
      EXPECT_TRUE(matches(img.ids[k][2 - a], cv.fig1d[k][a])) << "cell " << k << " col " << a;

  // PTD of that planar grid against text (3,3,3)..(7,7,7).
  HandIds b(MetricSpace::Space);
  for (int k = 0; k < 9; ++k) b.image(img.ids[k][0], img.ids[k][1], img.ids[k][2], k / 3, k % 3);
  for (int j = 3; j <= 7; ++j) b.text(j);
  EXPECT_TRUE(matches(ptdOf(b.ids), cv.fig1dPtd));
}

// docs/reference-data.md#values-checked-outside-the-golden-files (not in the golden file): 1 text
// before and 1 after.
TEST(PtdReproductionDoc, TwoByTwoAndThreeByFour) {
  const Params c = circleParams(0.5, 10, 0);
  EXPECT_NEAR(ptdOf("hard", "t1,i2x2,t1"), 1.0, 1e-12);
  EXPECT_NEAR(ptdOf("spatial", "t1,i2x2,t1"), 0.3822, 0.5e-4 + 1e-12);
  EXPECT_NEAR(ptdOf("mrope", "t1,i2x2,t1"), 0.3012, 0.5e-4 + 1e-12);
  EXPECT_LT(std::fabs(ptdOf("circle", "t1,i2x2,t1", c)), 1e-12);
  EXPECT_NEAR(ptdOf("hard", "t1,i3x4,t1"), 3.0, 1e-12);
  EXPECT_NEAR(ptdOf("spatial", "t1,i3x4,t1"), 0.8113, 0.5e-4 + 1e-12);
  EXPECT_NEAR(ptdOf("mrope", "t1,i3x4,t1"), 0.6674, 0.5e-4 + 1e-12);
  EXPECT_LT(std::fabs(ptdOf("circle", "t1,i3x4,t1", c)), 1e-12);
}

// docs/designs.md#circle-rope-worked-values: DFF beta = 0.3 on 3x3 with 5 text after gives 0.0554.
TEST(PtdReproductionDoc, DualFrameFusionBreaksTheCone) {
  EXPECT_NEAR(ptdOf("circle", "i3x3,t5", circleParams(0.5, 10, 0.3)), 0.0554, 0.5e-4 + 1e-12);
}

}  // namespace
}  // namespace golden
