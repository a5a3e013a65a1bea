// PTD and bias spread between any two token groups (text, image, video, audio, visual): the fast
// paths against the definitions written out here over every token pair, a closed form on the
// line, the default pair unchanged, and the modality table's rows and limits.
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/modality_metrics.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"

using namespace ropescope;

namespace {

PositionIds idsOf(const std::string& design, const std::string& spec) {
  return findDesign(design).ids(parseLayoutSpec(spec), {});
}

// The definition: for each from-token, the mean absolute deviation of f over the to-tokens,
// averaged over the from-tokens; f(a, b) a distance or a bias.
template <typename F>
double brute(const PositionIds& ids, GroupPair g, F f) {
  std::vector<std::size_t> from, to;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (inGroup(ids.tokens[i].modality, g.from)) from.push_back(i);
    if (inGroup(ids.tokens[i].modality, g.to)) to.push_back(i);
  }
  double total = 0.0;
  for (std::size_t a : from) {
    double mean = 0.0;
    for (std::size_t b : to) mean += f(a, b);
    mean /= double(to.size());
    double dev = 0.0;
    for (std::size_t b : to) dev += std::abs(f(a, b) - mean);
    total += dev / double(to.size());
  }
  return total / double(from.size());
}

double bruteDistance(const PositionIds& ids, GroupPair g) {
  return brute(ids, g, [&](std::size_t a, std::size_t b) { return tokenDistance(ids, a, b); });
}

double bruteBias(const PositionIds& ids, const PairTable& pairs, GroupPair g) {
  return brute(ids, g, [&](std::size_t a, std::size_t b) {
    const Id3 d = displacement(ids, a, b);
    double s = 0.0;  // b = (1/n) sum_p cos(theta_p * delta on the pair's axis)
    for (int p = 0; p < pairs.size(); ++p)
      s += std::cos(pairs.theta[p] * axisCoordinate(pairs.axis[p], d));
    return s / pairs.size();
  });
}

const GroupPair kTextAudio{TokenGroup::Text, TokenGroup::Audio};

}  // namespace

TEST(ModalityMetrics, TextToAudioOnTheLineHasAClosedForm) {
  // Hard ids of t1,a3: the text token at 0, audio at 1, 2, 3: distances 1, 2, 3, mean 2,
  // deviations 1, 0, 1: PTD = 2/3. Both sides of the audio (t1,a3,t1): the last text token at 4
  // sees distances 3, 2, 1: the same 2/3.
  EXPECT_NEAR(perTokenDistance(idsOf("hard", "t1,a3"), 1, kTextAudio).ptd, 2.0 / 3.0, 1e-15);
  const PtdResult two = perTokenDistance(idsOf("hard", "t1,a3,t1"), 1, kTextAudio);
  EXPECT_NEAR(two.ptd, 2.0 / 3.0, 1e-15);
  EXPECT_EQ(two.nText, 2u);
  EXPECT_EQ(two.nVisual, 3u);
  ASSERT_EQ(two.meanDistance.size(), 2u);
  EXPECT_DOUBLE_EQ(two.meanDistance[0], 2.0);
  EXPECT_DOUBLE_EQ(two.meanDistance[1], 2.0);
}

TEST(ModalityMetrics, EveryPairMatchesTheDefinitionUnderEveryDesignFamily) {
  const std::string spec = "t3,a7,i3x4,t2,v2x2x3,a5,t4";
  const PairTable pairs = resolvePairs(FrequencySpec{});
  for (const char* design : {"hard", "mrope", "circle", "videorope", "vrope"}) {
    const PositionIds ids = idsOf(design, spec);
    for (TokenGroup from : kTokenGroups)
      for (TokenGroup to : kTokenGroups) {
        const GroupPair g{from, to};
        bool overlap = false;
        try {
          checkGroupPair(g);
        } catch (const InputError&) {
          overlap = true;
        }
        if (overlap) continue;
        SCOPED_TRACE(std::string(design) + " " + tokenGroupName(from) + "->" + tokenGroupName(to));
        const double want = bruteDistance(ids, g);
        EXPECT_NEAR(perTokenDistance(ids, 1, g).ptd, want, 1e-9 * (1.0 + want));
        EXPECT_NEAR(perTokenDistance(ids, 3, g).ptd, want, 1e-9 * (1.0 + want));
        EXPECT_NEAR(perTokenDistanceReference(ids, g).ptd, want, 1e-9 * (1.0 + want));
        const double bias = bruteBias(ids, pairs, g);
        EXPECT_NEAR(biasSpread(ids, pairs, 2, g).spread, bias, 1e-12);
        EXPECT_NEAR(biasSpreadReference(ids, pairs, g).spread, bias, 1e-12);
      }
  }
}

TEST(ModalityMetrics, OverlappingGroupsAndUnknownNamesAreRefused) {
  const PositionIds ids = idsOf("mrope", "t2,i2x2,a3");
  for (const GroupPair g : {GroupPair{TokenGroup::Text, TokenGroup::Text},
                            GroupPair{TokenGroup::Image, TokenGroup::Visual},
                            GroupPair{TokenGroup::Visual, TokenGroup::Video}}) {
    try {
      perTokenDistance(ids, 1, g);
      ADD_FAILURE() << tokenGroupName(g.from) << "->" << tokenGroupName(g.to) << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "to");
      EXPECT_NE(std::string(e.what()).find("share tokens"), std::string::npos) << e.what();
    }
  }
  try {
    parseTokenGroup("speech", "from");
    ADD_FAILURE() << "speech accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--from must be one of text, visual, image, video, audio (got \"speech\")");
  }
  EXPECT_EQ(parseTokenGroup("audio", "to"), TokenGroup::Audio);
}

TEST(ModalityMetrics, AMissingGroupIsUndefinedWithItsName) {
  const PositionIds ids = idsOf("mrope", "t2,i2x2");
  const PtdResult p = perTokenDistance(ids, 1, kTextAudio);
  EXPECT_TRUE(std::isnan(p.ptd));
  EXPECT_EQ(p.undefinedReason,
            "PTD needs at least one text and one audio token (layout has 2 text, 0 audio)");
  EXPECT_EQ(missingTokensText(2, 0, kTextAudio), "no audio token");
  EXPECT_EQ(missingTokensText(0, 0, {TokenGroup::Audio, TokenGroup::Image}),
            "no audio or image token");
  // The default pair keeps its words.
  EXPECT_EQ(missingTokensText(5, 0), "no visual token");
}

TEST(ModalityMetrics, AudioTokensAreNeitherTextNorVisualInTheDefaultPair) {
  // Audio between text and the picture must not change text -> visual: the same numbers as the
  // definition over text and image tokens only.
  const PositionIds ids = idsOf("circle", "t3,a6,i3x3,t2");
  const PtdResult p = perTokenDistance(ids);
  EXPECT_EQ(p.nText, 5u);
  EXPECT_EQ(p.nVisual, 9u);
  EXPECT_NEAR(p.ptd, bruteDistance(ids, {}), 1e-12);
  EXPECT_EQ(ids.visualIndices().size(), 9u);
  EXPECT_EQ(ids.audioIndices().size(), 6u);
}

TEST(ModalityMetrics, TableHasEveryOrderedPairOfPresentModalities) {
  const PositionIds ids = idsOf("mrope", "t2,a3,i2x2,t1");
  const PairTable pairs = resolvePairs(FrequencySpec{});
  const auto rows = modalityPairMetrics(ids, pairs);
  ASSERT_EQ(rows.size(), 6u);  // text, image, audio: 3 x 2 ordered pairs; no video
  const std::pair<TokenGroup, TokenGroup> order[] = {
      {TokenGroup::Text, TokenGroup::Image}, {TokenGroup::Text, TokenGroup::Audio},
      {TokenGroup::Image, TokenGroup::Text}, {TokenGroup::Image, TokenGroup::Audio},
      {TokenGroup::Audio, TokenGroup::Text}, {TokenGroup::Audio, TokenGroup::Image}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].groups.from, order[i].first);
    EXPECT_EQ(rows[i].groups.to, order[i].second);
    EXPECT_TRUE(rows[i].skipped.empty());
    EXPECT_NEAR(rows[i].ptd, bruteDistance(ids, rows[i].groups), 1e-12);
    EXPECT_NEAR(rows[i].biasSpread, bruteBias(ids, pairs, rows[i].groups), 1e-12);
  }
  EXPECT_EQ(rows[1].nFrom, 3u);
  EXPECT_EQ(rows[1].nTo, 3u);
  // Over the limit: listed, not computed, and said why.
  const auto capped = modalityPairMetrics(ids, pairs, 1, 8.0);
  ASSERT_EQ(capped.size(), 6u);
  EXPECT_TRUE(std::isnan(capped[0].ptd));  // text -> image: 3 x 4 = 12 pairs > 8
  EXPECT_EQ(capped[0].skipped, "12 token pairs, over the limit of 8");
  EXPECT_FALSE(capped[1].skipped.empty());  // text -> audio: 3 x 3 = 9 > 8 too
  // The slow limit holds for image tokens (off the diagonal), not for text or audio ones.
  const auto slow = modalityPairMetrics(ids, pairs, 1, 1e300, 10.0);
  ASSERT_EQ(slow.size(), 6u);
  EXPECT_TRUE(slow[0].skipped.empty());  // text -> image, 12 pairs
  EXPECT_EQ(slow[2].skipped,
            "12 token pairs, over the limit of 10 for tokens off the diagonal t = h = w");
  EXPECT_FALSE(slow[3].skipped.empty());  // image -> audio, 12
  EXPECT_TRUE(slow[5].skipped.empty());   // audio -> image, 12: audio is on the diagonal
  EXPECT_NEAR(slow[5].ptd, rows[5].ptd, 0.0);
}

TEST(ModalityMetrics, DecayAlongTheAudioStreamOnlyWithAudio) {
  // Audio tokens move apart along t = h = w: the live decay view adds that curve for a layout
  // with audio, the full-form U along (1, 1, 1), and leaves it out otherwise.
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t2,a9,i2x2");
  const SceneMetrics m = computeSceneMetrics(s, 64);
  const std::vector<double> want =
      decayCurve(resolvePairs(s.frequency), {1.0, 1.0, 1.0}, 64, DecayForm::Full);
  ASSERT_EQ(m.decayStream.size(), 65u);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(m.decayStream[i], want[i]) << i;
  // Not a copy of an axis curve: along t alone differs once pairs of h and w turn too.
  EXPECT_NE(m.decayStream[10], m.decayAxis[0][10]);
  s.layout = parseLayoutSpec("t2,i2x2");
  EXPECT_TRUE(computeSceneMetrics(s, 64).decayStream.empty());
}
