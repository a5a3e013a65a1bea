// The id budget (id_budget.h): hand-worked layouts, the family's own rope_deltas, the share of
// pairs past the trained angles against a plain loop, the Qwen3-VL 1M-token video of its README,
// the trained length's sources, and a 4M-token sequence in one pass.
#include "ropescope/id_budget.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/id_budget_report.h"
#include "ropescope/layout.h"
#include "ropescope/model_config.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "test_util.h"

namespace ropescope {
namespace {

PositionIds idsOf(const std::string& design, const std::string& spec) {
  return findDesign(design).ids(parseLayoutSpec(spec), {});
}

PairTable mropeTable() {
  FrequencySpec f;
  f.plan = "mrope";
  return resolvePairs(f);
}

TrainedLength known(long long n) {
  return {n, "test", {}};
}

// M-RoPE (Qwen2-VL's rule): text 0, 1, 2; the 4 x 6 image at start 3 takes t 3, h 3..6, w 3..8;
// the text after it starts at the image's largest id + 1 = 9. 29 tokens, largest id 10: the
// image spent max(4, 6) = 6 ids on 24 tokens.
TEST(IdBudget, ImageAdvancesTheIdsByItsLongerSide) {
  const PositionIds ids = idsOf("mrope", "t3,i4x6,t2");
  const IdBudget b = idBudget(ids, mropeTable(), {}, known(16), 64);
  EXPECT_EQ(b.tokens, 29u);
  EXPECT_EQ(b.largestId, 10.0);
  EXPECT_EQ(b.maxId, (Id3{10.0, 10.0, 10.0}));
  EXPECT_EQ(b.minId, (Id3{0.0, 0.0, 0.0}));
  EXPECT_EQ(b.ropeDelta, 11.0 - 29.0);
  EXPECT_DOUBLE_EQ(b.growth, 11.0 / 29.0);
  ASSERT_EQ(b.curveTokens.size(), 29u);  // fewer tokens than points: every token
  EXPECT_EQ(b.curveMax[2], (Id3{2.0, 2.0, 2.0}));
  EXPECT_EQ(b.curveMax[3], (Id3{3.0, 3.0, 3.0}));   // the image's first token
  EXPECT_EQ(b.curveMax[26], (Id3{3.0, 6.0, 8.0}));  // its last: row 3, column 5
  EXPECT_EQ(b.curveMax[27], (Id3{9.0, 9.0, 9.0}));  // the text after it, at max + 1
  EXPECT_EQ(b.curveLargest[26], 8.0);
  ASSERT_EQ(b.axes.size(), 3u);
  for (const AxisBudget& a : b.axes) {
    EXPECT_EQ(a.distance, 10.0);
    ASSERT_TRUE(a.ratio);
    EXPECT_DOUBLE_EQ(*a.ratio, 10.0 / 16.0);
  }
  // The YaRN factor from the ids against the one from the tokens.
  EXPECT_DOUBLE_EQ(*b.yarnFactorFromIds, 11.0 / 16.0);
  EXPECT_DOUBLE_EQ(*b.yarnFactorFromTokens, 29.0 / 16.0);
  // The switch at the trained length 16: seq_len = largest id + 1 = 11 never passes it.
  EXPECT_EQ(b.switchLength, 16);
  EXPECT_EQ(b.switchFrom, "trained length");
  EXPECT_FALSE(b.switchToken);
}

TEST(IdBudget, TheCurveKeepsExactValuesAtEvenlySpreadPoints) {
  const PositionIds ids = idsOf("mrope", "t3,i4x6,t2");
  const IdBudget b = idBudget(ids, mropeTable(), {}, known(8), 5);
  // 0, 7, 14, 21, 28 of 0..28: tokens 1, 8, 15, 22, 29.
  EXPECT_EQ(b.curveTokens, (std::vector<std::size_t>{1, 8, 15, 22, 29}));
  // Token 7 is image row 0, column 4 (w 7); token 14 row 1, column 5 (h 4, w 8); token 21
  // row 3, column 0 (h 6).
  EXPECT_EQ(b.curveMax[1], (Id3{3.0, 3.0, 7.0}));
  EXPECT_EQ(b.curveMax[2], (Id3{3.0, 4.0, 8.0}));
  EXPECT_EQ(b.curveMax[3], (Id3{3.0, 6.0, 8.0}));
  EXPECT_EQ(b.curveMax[4], (Id3{10.0, 10.0, 10.0}));
  // Trained length 8: seq_len passes 8 at the first id 8 (token 9: row 0, column 5).
  ASSERT_TRUE(b.switchToken);
  EXPECT_EQ(*b.switchToken, 8u);
}

TEST(IdBudget, OneDimensionalIdsSpendOneIdPerToken) {
  const PositionIds ids = idsOf("hard", "t5,i3x3,t2");
  FrequencySpec f;
  f.plan = "vanilla";
  const IdBudget b = idBudget(ids, resolvePairs(f), {}, known(1024));
  EXPECT_EQ(b.tokens, 16u);
  EXPECT_EQ(b.largestId + 1.0, 16.0);
  EXPECT_EQ(b.ropeDelta, 0.0);
  EXPECT_EQ(b.growth, 1.0);
  EXPECT_EQ(*b.yarnFactorFromIds, *b.yarnFactorFromTokens);
}

// Qwen2-VL: a video's frame index is its temporal id, so v2x4x4 after one text token takes t 1..2,
// h and w 1..4; the text after it starts at 5.
TEST(IdBudget, VideoAdvancesByItsLongestSide) {
  const PositionIds ids = idsOf("qwen2-vl", "t1,v2x4x4,t1");
  const IdBudget b = idBudget(ids, mropeTable(), {}, known(32768));
  EXPECT_EQ(b.tokens, 34u);
  EXPECT_EQ(b.largestId, 5.0);
  EXPECT_EQ(b.curveMax[32], (Id3{2.0, 4.0, 4.0}));  // the video's last token
  EXPECT_EQ(b.ropeDelta, 6.0 - 34.0);
}

// rope_deltas is the family's own (PositionIds::ropeDelta, as get_rope_index returns it), and
// equals largest id + 1 - tokens for every family design and random layouts.
TEST(IdBudget, RopeDeltasAreTheFamilysOwn) {
  std::mt19937 rng(7);
  for (const char* design : {"qwen2-vl", "qwen2.5-vl", "qwen3-vl", "glm4v", "mrope", "hard"}) {
    for (int i = 0; i < 20; ++i) {
      const Layout layout = test::randomLayout(rng);
      const PositionIds ids = findDesign(design).ids(layout, {});
      const IdBudget b = idBudget(ids, mropeTable(), {}, {}, 2);
      EXPECT_EQ(b.ropeDelta, ids.ropeDelta) << design;
      double top = 0.0;
      for (const Id3& id : ids.ids) top = std::max({top, id[0], id[1], id[2]});
      EXPECT_EQ(b.largestId, top) << design;
      EXPECT_EQ(b.ropeDelta, top + 1.0 - static_cast<double>(ids.size())) << design;
      EXPECT_EQ(b.curveLargest.back(), top) << design;
      EXPECT_EQ(b.curveTokens, (std::vector<std::size_t>{1, ids.size()})) << design;
    }
  }
}

// The share of pairs past the trained range, against a plain loop: for each pair, the largest
// distance on its axis from every pair of tokens, the angle trained with and the one in use.
TEST(IdBudget, ShareOfPairsMatchesALoopOverPairs) {
  std::mt19937 rng(11);
  std::size_t outsideSeen = 0, insideSeen = 0;  // the cases hold both answers
  for (const char* rope : {"", "yarn", "linear"}) {
    FrequencySpec f;
    f.plan = "mrope";
    f.rotary.base = 10000.0;
    f.rotary.headDim = 64;
    if (std::string(rope) == "yarn") {
      f.rope.type = "yarn";
      f.rope.params.set("factor", 4.0);
      f.rope.params.set("original_max_position_embeddings", 24.0);
    } else if (std::string(rope) == "linear") {
      f.rope.type = "linear";
      f.rope.params.set("factor", 2.0);
    }
    const PairTable pairs = resolvePairs(f);
    for (long long L : {4LL, 12LL, 24LL, 60LL}) {
      const Layout layout = test::randomLayout(rng, 8, 9);
      const PositionIds ids = findDesign("mrope").ids(layout, {});
      const IdBudget b = idBudget(ids, pairs, f.rope, known(L));
      for (int a = 0; a < 3; ++a) {
        double dmax = 0.0;  // brute force over token pairs
        for (const Id3& x : ids.ids)
          for (const Id3& y : ids.ids) dmax = std::max(dmax, std::abs(x[a] - y[a]));
        std::vector<int> outside;
        int count = 0;
        for (int p = 0; p < pairs.size(); ++p) {
          if (static_cast<int>(pairs.axis[p]) != a) continue;
          ++count;
          const double trainTheta = f.rope.active() ? pairs.thetaUnscaled[p] : pairs.theta[p];
          const double wavelength = 2.0 * M_PI / trainTheta;
          const bool turnedInTraining = wavelength <= static_cast<double>(L - 1);
          if (!turnedInTraining && pairs.theta[p] * dmax > trainTheta * (L - 1))
            outside.push_back(p);
        }
        outsideSeen += outside.size();
        insideSeen += static_cast<std::size_t>(count) - outside.size();
        const AxisBudget& got = b.axes[a];
        EXPECT_EQ(got.distance, dmax);
        EXPECT_EQ(got.pairs, count);
        EXPECT_EQ(got.outsidePairs, outside) << rope << " L " << L << " axis " << a;
        ASSERT_TRUE(got.share);
        EXPECT_DOUBLE_EQ(*got.share, double(outside.size()) / count);
      }
    }
  }
  EXPECT_GT(outsideSeen, 0u);
  EXPECT_GT(insideSeen, 0u);
}

// Within the trained length nothing is outside; a 1-D sequence twice as long as training puts
// exactly the pairs that never turned once in training outside.
TEST(IdBudget, PairsThatTurnedInTrainingNeverLeaveTheRange) {
  FrequencySpec f;
  f.plan = "vanilla";
  f.rotary.base = 10000.0;
  f.rotary.headDim = 64;
  const PairTable pairs = resolvePairs(f);
  PositionIds ids;
  ids.design = "hard";
  for (int k = 0; k < 2000; ++k) ids.ids.push_back({double(k), double(k), double(k)});
  const IdBudget b = idBudget(ids, pairs, {}, known(1000));
  int slow = 0;
  for (double th : pairs.theta) slow += 2.0 * M_PI / th > 999.0;
  ASSERT_GT(slow, 0);
  EXPECT_EQ(b.axes[0].outsidePairs.size(), static_cast<std::size_t>(slow));
  const IdBudget within = idBudget(ids, pairs, {}, known(2000));
  EXPECT_TRUE(within.axes[0].outsidePairs.empty());
  EXPECT_EQ(*within.axes[0].share, 0.0);
}

// The ids of a Qwen3-VL video: every frame is a block of its own (timestamp text, vision start,
// the frame, vision end) starting at the largest id before it + 1, so a long video is frames
// appended one after another: tile() gives the ids of `frames` frames of 16 x 16 tokens with
// 6-token timestamps (checked against the design itself at 8 frames). The layout parser takes
// at most kMaxLayoutTokens tokens, so the 1M-token video is tiled here.
PositionIds qwen3Video(const PositionIds& unit, std::size_t frames) {
  PositionIds out;
  out.design = unit.design;
  out.ids.reserve(unit.size() * frames);
  double start = 0.0, top = -1.0;
  for (std::size_t f = 0; f < frames; ++f) {
    for (const Id3& id : unit.ids) {
      out.ids.push_back({id[0] + start, id[1] + start, id[2] + start});
      top = std::max({top, id[0] + start, id[1] + start, id[2] + start});
    }
    start = top + 1.0;
  }
  out.ropeDelta = top + 1.0 - static_cast<double>(out.ids.size());
  return out;
}

class IdBudgetModels : public ::testing::Test {
 protected:
  void SetUp() override { setModelLocator(modelFolderLocator(ROPESCOPE_MODELS)); }
  void TearDown() override { setModelLocator({}); }
};

TEST_F(IdBudgetModels, Qwen3VlMillionTokenVideoNeedsASmallerFactorThanItsTokens) {
  const ModelConfig model = readModelConfig("qwen3-vl-8b");
  ASSERT_EQ(model.maxPositionEmbeddings, 262144);
  const Scene scene = applyModel(defaultScene(), model);
  const PositionDesign& design = findDesign(scene.design);
  const PositionIds unit = design.ids(parseLayoutSpec("qwen3-vl:v1x16x16/ts6"), scene.designParams);
  ASSERT_EQ(unit.size(), 264u);  // 6 + 1 + 256 + 1
  const PositionIds eight =
      design.ids(parseLayoutSpec("qwen3-vl:v8x16x16/ts6"), scene.designParams);
  EXPECT_EQ(qwen3Video(unit, 8).ids, eight.ids);
  EXPECT_EQ(qwen3Video(unit, 8).ropeDelta, eight.ropeDelta);

  const std::size_t frames = 3972;  // 1,048,608 tokens
  const PositionIds video = qwen3Video(unit, frames);
  ASSERT_EQ(video.size(), 1048608u);
  const PairTable pairs = resolvePairs(scene.frequency);
  const IdBudget b =
      idBudget(video, pairs, scene.frequency.rope,
               trainedLengthOf(scene.frequency.rope, model.maxPositionEmbeddings, 0));
  EXPECT_EQ(b.trained.tokens, 262144);
  EXPECT_EQ(b.trained.source, "config max_position_embeddings");
  // Each frame spends 6 + 1 + max(16, 16) + 1 = 24 ids on 264 tokens.
  EXPECT_EQ(b.largestId, 24.0 * frames - 1.0);
  ASSERT_TRUE(b.yarnFactorFromIds && b.yarnFactorFromTokens);
  EXPECT_DOUBLE_EQ(*b.yarnFactorFromIds, 24.0 * frames / 262144.0);  // 0.3637
  EXPECT_DOUBLE_EQ(*b.yarnFactorFromTokens, 1048608.0 / 262144.0);   // 4.0001
  EXPECT_LT(*b.yarnFactorFromIds, *b.yarnFactorFromTokens);
  EXPECT_FALSE(b.switchToken);  // the ids stay within 262,144
  for (const AxisBudget& a : b.axes) EXPECT_TRUE(a.outsidePairs.empty()) << axisName(a.axis);

  // The same tokens as text: one id per token, past the trained length, and the slow pairs
  // of every axis leave the trained range.
  PositionIds text;
  text.ids.resize(video.size());
  for (std::size_t k = 0; k < text.ids.size(); ++k) text.ids[k] = {double(k), double(k), double(k)};
  const IdBudget t = idBudget(text, pairs, scene.frequency.rope, b.trained);
  EXPECT_DOUBLE_EQ(*t.yarnFactorFromIds, *t.yarnFactorFromTokens);
  ASSERT_TRUE(t.switchToken);
  EXPECT_EQ(*t.switchToken, 262144u);  // id 262144: seq_len 262145 > 262144
  for (const AxisBudget& a : t.axes) EXPECT_FALSE(a.outsidePairs.empty()) << axisName(a.axis);
}

TEST(IdBudget, TrainedLengthComesFromTheOptionTheRopeOrTheConfig) {
  RopeScaling yarn{"yarn", {}, {}, {}, -1};
  yarn.params.set("factor", 4.0);
  yarn.params.set("original_max_position_embeddings", 32768.0);
  EXPECT_EQ(trainedLengthOf(yarn, 128000, 0).tokens, 32768);
  EXPECT_EQ(trainedLengthOf(yarn, 128000, 0).source, "rope yarn original_max_position_embeddings");
  EXPECT_EQ(trainedLengthOf(yarn, 128000, 5000).tokens, 5000);
  RopeScaling dynamic{"dynamic", {}, {}, {}, -1};
  dynamic.params.set("factor", 2.0);
  dynamic.params.set("max_position_embeddings", 4096.0);
  EXPECT_EQ(trainedLengthOf(dynamic, 0, 0).tokens, 4096);
  EXPECT_EQ(trainedLengthOf({}, 262144, 0).tokens, 262144);
  const TrainedLength none = trainedLengthOf({}, 0, 0);
  EXPECT_FALSE(none.known());
  EXPECT_NE(none.reason.find("--trained-length"), std::string::npos);
}

// Without a trained length every ratio is undefined (nullopt with the reason), never 0.
TEST(IdBudget, UnknownTrainedLengthLeavesTheRatiosUndefined) {
  const PositionIds ids = idsOf("mrope", "t3,i4x6,t2");
  const IdBudget b = idBudget(ids, mropeTable(), {}, trainedLengthOf({}, 0, 0));
  EXPECT_FALSE(b.yarnFactorFromIds);
  EXPECT_FALSE(b.yarnFactorFromTokens);
  EXPECT_EQ(b.switchLength, 0);
  for (const AxisBudget& a : b.axes) {
    EXPECT_FALSE(a.ratio);
    EXPECT_FALSE(a.share);
    EXPECT_NE(a.shareUndefined.find("no trained length"), std::string::npos);
  }
  EXPECT_EQ(b.largestId, 10.0);  // what needs no trained length is still there
}

TEST(IdBudget, RefusesNoTokensAndPointsOutOfRange) {
  EXPECT_NE(test::messageOf([] {
              idBudget(PositionIds{}, mropeTable(), {}, known(8));
            }).find("at least one token"),
            std::string::npos);
  const PositionIds ids = idsOf("hard", "t4");
  EXPECT_NE(
      test::messageOf([&] { idBudget(ids, mropeTable(), {}, known(8), 1); }).find("2..1048576"),
      std::string::npos);
}

// 4,194,304 tokens (the tiled video) in one pass: the curve keeps its point count and its last
// point is the sequence's largest id. No time is asserted.
TEST_F(IdBudgetModels, FourMillionTokensInOnePass) {
  const ModelConfig model = readModelConfig("qwen3-vl-8b");
  const Scene scene = applyModel(defaultScene(), model);
  const PositionIds unit =
      findDesign(scene.design).ids(parseLayoutSpec("qwen3-vl:v1x16x16/ts6"), scene.designParams);
  const PositionIds video = qwen3Video(unit, 15888);
  ASSERT_EQ(video.size(), 4194432u);
  const IdBudget b =
      idBudget(video, resolvePairs(scene.frequency), {}, known(262144), kDefaultBudgetPoints);
  EXPECT_EQ(b.curveTokens.size(), kDefaultBudgetPoints);
  EXPECT_EQ(b.curveTokens.back(), video.size());
  EXPECT_EQ(b.curveLargest.back(), 24.0 * 15888 - 1.0);
  EXPECT_TRUE(std::is_sorted(b.curveLargest.begin(), b.curveLargest.end()));
  ASSERT_TRUE(b.switchToken);  // ids pass 262,144 near frame 10,923
  EXPECT_EQ(video.ids[*b.switchToken][0] + 1.0 > 262144.0 ||
                video.ids[*b.switchToken][1] + 1.0 > 262144.0 ||
                video.ids[*b.switchToken][2] + 1.0 > 262144.0,
            true);
}

// Per axis the discrimination bound over the axis's pairs (a plain loop of cos sums
// here) against its distance, and the full-period pairs against the trained length (the pairs
// p of the axis with 2 pi / theta_p <= L, counted here), twice their count the critical dim.
TEST(IdBudget, DiscriminationBoundAndCriticalDimensionPerAxis) {
  const PositionIds ids = idsOf("mrope", "t100,v16x32x32,t50");
  const PairTable pairs = mropeTable();
  const IdBudget b = idBudget(ids, pairs, {}, known(4096));
  ASSERT_EQ(b.axes.size(), 3u);
  for (const AxisBudget& a : b.axes) {
    std::vector<double> thetas;
    std::size_t full = 0;
    for (int p = 0; p < pairs.size(); ++p)
      if (pairs.axis[static_cast<std::size_t>(p)] == a.axis) {
        const double th = pairs.theta[static_cast<std::size_t>(p)];
        thetas.push_back(th);
        if (2.0 * 3.14159265358979323846 / th <= 4096.0) ++full;
      }
    long long first = -1;
    for (long long m = 1; m <= kMaxDiscriminationDistance && first < 0; ++m) {
      double sum = 0.0;
      for (double th : thetas) sum += std::cos(static_cast<double>(m) * th);
      if (sum < 0.0) first = m;
    }
    ASSERT_TRUE(a.discrimination.distance) << axisName(a.axis);
    EXPECT_EQ(*a.discrimination.distance, first) << axisName(a.axis);
    EXPECT_EQ(*a.withinBound, a.distance < static_cast<double>(first)) << axisName(a.axis);
    EXPECT_EQ(a.fullPeriodPairs.size(), full) << axisName(a.axis);
    EXPECT_EQ(*a.criticalDimension, 2 * static_cast<int>(full));
  }
  // Chunked M-RoPE's t (pairs 0..15, the highest frequencies) turns negative at 16, under the
  // video's 181-id reach; all 16 pairs turned a whole period in 4096 positions.
  EXPECT_EQ(*b.axes[0].discrimination.distance, 16);
  EXPECT_FALSE(*b.axes[0].withinBound);
  EXPECT_EQ(*b.axes[0].criticalDimension, 32);
}

TEST(IdBudget, CriticalDimensionIsUndefinedWithoutATrainedLengthOrPairs) {
  const PositionIds ids = idsOf("hard", "t20");
  FrequencySpec f;
  f.plan = "vanilla";
  const IdBudget b = idBudget(ids, resolvePairs(f), {}, trainedLengthOf({}, 0, 0));
  EXPECT_FALSE(b.axes[0].criticalDimension);
  EXPECT_NE(b.axes[0].criticalUndefined.find("no trained length"), std::string::npos);
  EXPECT_TRUE(b.axes[0].discrimination.distance);  // needs no trained length
  // Vanilla turns no pair with h: no bound, no critical dimension.
  const IdBudget k = idBudget(ids, resolvePairs(f), {}, known(64));
  EXPECT_FALSE(k.axes[1].discrimination.distance);
  EXPECT_FALSE(k.axes[1].withinBound);
  EXPECT_FALSE(k.axes[1].criticalDimension);
  EXPECT_EQ(k.axes[1].criticalUndefined, "the plan turns no pair with axis h");
}

// The Budget tab's grids: a column per axis, a cell per quantity, each the number core computed
// or n/a with the reason (never 0); the CSV has one row per cell.
TEST(IdBudgetGrid, CellsAreTheBudgetsNumbersOrNotApplicable) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t5,i6x8,t7");
  setDesign(s, "mrope");
  const IdBudget known = sceneIdBudget(s, 64, 0);
  const ReportGrid axes = budgetAxisGrid(known);
  ASSERT_EQ(axes.columns, (std::vector<std::string>{"t", "h", "w"}));
  ASSERT_EQ(axes.lines[0].name, "largest distance");
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(axes.lines[0].cells[a].text, readableNumber(known.axes[a].distance));
    EXPECT_EQ(axes.lines[1].cells[a].text, "64");
    EXPECT_EQ(axes.lines[2].cells[a].text, readableNumber(*known.axes[a].ratio));
  }
  const ReportGrid totals = budgetTotalsGrid(known);
  ASSERT_EQ(totals.lines[2].name, "rope_deltas");
  EXPECT_EQ(totals.lines[2].cells[0].text, readableNumber(known.ropeDelta));
  EXPECT_EQ(totals.lines[5].cells[0].text, readableNumber(*known.yarnFactorFromIds));

  const IdBudget unknown = sceneIdBudget(s, 0, 0);
  ASSERT_FALSE(unknown.trained.known());
  const ReportGrid none = budgetAxisGrid(unknown);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(none.lines[2].cells[a].text, "n/a");
    EXPECT_EQ(none.lines[2].cells[a].undefined, unknown.trained.reason);
  }
  const Table t = gridTable(none);
  EXPECT_EQ(t.columns,
            (std::vector<std::string>{"quantity", "column", "value", "verdict", "undefined"}));
  EXPECT_EQ(t.rows.size(), none.lines.size() * 3);
  // An undefined value is an empty cell with its reason, never 0.
  EXPECT_EQ(std::get<std::string>(t.rows[6][2]), "");
  EXPECT_EQ(std::get<std::string>(t.rows[6][4]), unknown.trained.reason);
}

}  // namespace
}  // namespace ropescope
