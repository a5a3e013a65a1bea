// Which parts of a Scene an edit touches (scene_changes.h), and the metrics updated by part
// (updateSceneMetrics) against the metrics computed whole.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "ropescope/scene_changes.h"
#include "ropescope/scene_metrics.h"

using ropescope::Scene;
using ropescope::SceneChanges;
using ropescope::ScenePart;

namespace {

Scene baseScene() {
  Scene s = ropescope::defaultScene();
  s.layout = ropescope::parseLayoutSpec("t4,i3x5,t6");
  s.design = "circle";
  s.designParams = {};
  s.selectedText = 2;
  return s;
}

struct FieldEdit {
  std::string name;
  std::function<void(Scene&)> edit;
  SceneChanges part;
};

std::vector<FieldEdit> fieldEdits() {
  return {
      {"layout", [](Scene& s) { s.layout = ropescope::parseLayoutSpec("t5,i3x5,t6"); },
       ScenePart::Layout},
      {"imageGrid", [](Scene& s) { s.imageGrid.patch = 16; }, ScenePart::ImageGrid},
      {"design", [](Scene& s) { s.design = "hard"; }, ScenePart::Design},
      {"designParams", [](Scene& s) { s.designParams.set("alpha", 0.5); }, ScenePart::Design},
      {"ageLayer", [](Scene& s) { s.ageLayer = 1; }, ScenePart::Design},
      {"idsFile", [](Scene& s) { s.idsFile = "/tmp/ids.npy"; }, ScenePart::Design},
      {"fileIds",
       [](Scene& s) {
         s.fileIds = {{0, 0, 0}};
       },
       ScenePart::Design},
      {"age", [](Scene& s) { s.age.layers = 12; }, ScenePart::Age},
      {"frequency", [](Scene& s) { s.frequency.rotary.base = 500000.0; }, ScenePart::Frequency},
      {"selectedText", [](Scene& s) { s.selectedText = 5; }, ScenePart::Selection},
      {"model", [](Scene& s) { s.model = "qwen2.5-vl-7b"; }, ScenePart::Label},
  };
}

// Equal, or both NaN (an undefined metric).
bool sameNumber(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

void expectSameMetrics(const ropescope::SceneMetrics& a, const ropescope::SceneMetrics& b) {
  EXPECT_EQ(a.designUsed, b.designUsed);
  EXPECT_EQ(a.ids.ids, b.ids.ids);
  EXPECT_EQ(a.pairs.theta, b.pairs.theta);
  EXPECT_PRED2(sameNumber, a.ptd.ptd, b.ptd.ptd);
  EXPECT_EQ(a.biasPending, b.biasPending);
  EXPECT_PRED2(sameNumber, a.bias.spread, b.bias.spread);
  EXPECT_EQ(a.bias.perText, b.bias.perText);
  EXPECT_EQ(a.decayDistance, b.decayDistance);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a.decayAxis[k], b.decayAxis[k]);
  EXPECT_EQ(a.decayStream, b.decayStream);
  EXPECT_EQ(a.wavelengths.size(), b.wavelengths.size());
  EXPECT_EQ(a.selectedToken, b.selectedToken);
  EXPECT_EQ(a.selectedDistance, b.selectedDistance);
  EXPECT_EQ(a.selectedBias, b.selectedBias);
}

}  // namespace

TEST(SceneChanges, EqualScenesChangeNothing) {
  EXPECT_TRUE(ropescope::sceneChanges(baseScene(), baseScene()).empty());
}

TEST(SceneChanges, EachFieldTouchesItsOwnPartOnly) {
  for (const FieldEdit& f : fieldEdits()) {
    Scene after = baseScene();
    f.edit(after);
    ASSERT_FALSE(after == baseScene()) << f.name << ": the edit must change the scene";
    EXPECT_EQ(ropescope::sceneChanges(baseScene(), after), f.part) << f.name;
    EXPECT_EQ(ropescope::sceneChanges(after, baseScene()), f.part) << f.name << " (back)";
  }
}

TEST(SceneChanges, SeveralEditsAddTheirParts) {
  Scene after = baseScene();
  after.selectedText = 4;
  after.frequency.rotary.base = 20000.0;
  const SceneChanges c = ropescope::sceneChanges(baseScene(), after);
  EXPECT_EQ(c, ScenePart::Selection | ScenePart::Frequency);
  EXPECT_TRUE(c.touches(ScenePart::Selection));
  EXPECT_FALSE(c.touches(ropescope::kIdsParts));
  EXPECT_FALSE(c.within(ScenePart::Selection));
  EXPECT_TRUE(c.within(ScenePart::Selection | ScenePart::Frequency | ScenePart::Label));
}

// What the results read: the selection is read by the profiles only; the comparison and the
// ids read neither the selection nor the label.
TEST(SceneChanges, ResultsReadTheirParts) {
  EXPECT_FALSE(ropescope::kComparisonParts.touches(ScenePart::Selection));
  EXPECT_FALSE(ropescope::kComparisonParts.touches(ScenePart::Label));
  EXPECT_FALSE(ropescope::kIdsParts.touches(ScenePart::Selection | ScenePart::Frequency));
  EXPECT_TRUE(ropescope::kBiasParts.touches(ScenePart::Frequency));
  EXPECT_TRUE(ropescope::kSelectionParts.touches(ScenePart::Selection));
  for (const FieldEdit& f : fieldEdits()) EXPECT_TRUE(f.part.within(SceneChanges::all())) << f.name;
}

TEST(SceneMetricsUpdate, ASelectionChangeGivesTheWholeComputation) {
  const Scene before = baseScene();
  for (int text : {0, 3, 9, 40}) {  // 40: past the last text token, clamped like a fresh one
    Scene after = before;
    after.selectedText = text;
    ropescope::SceneMetrics m = ropescope::computeSceneMetrics(before, 64, 1);
    ropescope::updateSceneMetrics(m, after, ropescope::sceneChanges(before, after), 64, 1);
    expectSameMetrics(m, ropescope::computeSceneMetrics(after, 64, 1));
  }
}

TEST(SceneMetricsUpdate, AFrequencyOrIdsChangeGivesTheWholeComputation) {
  const Scene before = baseScene();
  for (const FieldEdit& f : fieldEdits()) {
    if (f.name == "idsFile" || f.name == "fileIds") continue;  // invalid without a file
    Scene after = before;
    f.edit(after);
    ropescope::SceneMetrics m = ropescope::computeSceneMetrics(before, 32, 1);
    ropescope::updateSceneMetrics(m, after, ropescope::sceneChanges(before, after), 32, 1);
    SCOPED_TRACE(f.name);
    expectSameMetrics(m, ropescope::computeSceneMetrics(after, 32, 1));
  }
  // Another curve length is computed whole too.
  ropescope::SceneMetrics m = ropescope::computeSceneMetrics(before, 32, 1);
  ropescope::updateSceneMetrics(m, before, {}, 64, 1);
  EXPECT_EQ(m.decayDistance.size(), 65u);
}

TEST(SceneMetricsUpdate, AnInvalidSceneLeavesTheMetrics) {
  const Scene before = baseScene();
  Scene after = before;
  after.selectedText = -1;
  ropescope::SceneMetrics m = ropescope::computeSceneMetrics(before, 32, 1);
  EXPECT_THROW(
      ropescope::updateSceneMetrics(m, after, ropescope::sceneChanges(before, after), 32, 1),
      ropescope::InputError);
  expectSameMetrics(m, ropescope::computeSceneMetrics(before, 32, 1));
}

TEST(SceneMetricsUpdate, SelectedTextTokenCountsTheTextTokens) {
  const ropescope::PositionIds ids = ropescope::computeSceneMetrics(baseScene(), 8, 1).ids;
  // t4,i3x5,t6: text tokens 0..3, then 15 visual tokens, then text tokens 19..24.
  EXPECT_EQ(ropescope::selectedTextToken(ids, 0), 0);
  EXPECT_EQ(ropescope::selectedTextToken(ids, 3), 3);
  EXPECT_EQ(ropescope::selectedTextToken(ids, 4), 19);
  EXPECT_EQ(ropescope::selectedTextToken(ids, 9), 24);
  EXPECT_EQ(ropescope::selectedTextToken(ids, 100), 24);
  const ropescope::PositionIds none = ropescope::computeSceneMetrics(
                                          [] {
                                            Scene s = baseScene();
                                            s.layout = ropescope::parseLayoutSpec("i2x2");
                                            s.selectedText = 0;
                                            return s;
                                          }(),
                                          8, 1)
                                          .ids;
  EXPECT_EQ(ropescope::selectedTextToken(none, 0), -1);
}

// The profiles are split among threads by visual token: the same numbers for every count.
TEST(SceneMetricsUpdate, SelectionProfilesAreTheSameOnEveryThreadCount) {
  Scene s = baseScene();
  s.layout = ropescope::parseLayoutSpec("t3,i17x23,t4");
  s.selectedText = 4;
  const ropescope::SceneMetrics one = ropescope::computeSceneMetrics(s, 16, 1);
  ASSERT_GE(one.selectedToken, 0);
  const auto token = static_cast<std::size_t>(one.selectedToken);
  // The profile is biasProfile over the ids' visual index, and within a few ulp of biasToVisual
  // (the per-pair sum of std::cos).
  EXPECT_EQ(one.selectedBias,
            ropescope::biasProfile(ropescope::tokenAxisIndex(one.ids, one.ids.visualIndices()),
                                   one.pairs, one.ids.ids[token]));
  const std::vector<double> reference = ropescope::biasToVisual(one.ids, one.pairs, token);
  ASSERT_EQ(one.selectedBias.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i)
    EXPECT_NEAR(one.selectedBias[i], reference[i], 1e-14) << i;
  EXPECT_EQ(one.selectedDistance, ropescope::distancesToVisual(one.ids, token));
  for (int threads : {2, 3, 7}) {
    ropescope::SceneMetrics m = ropescope::computeSceneMetrics(s, 16, threads);
    EXPECT_EQ(m.selectedBias, one.selectedBias) << threads;
    EXPECT_EQ(m.selectedDistance, one.selectedDistance) << threads;
  }
}

namespace {

// Everything but the bias spread: what a scene computed with BiasSpreadWhen::Later must match.
void expectSameButTheBias(const ropescope::SceneMetrics& later,
                          const ropescope::SceneMetrics& now) {
  ropescope::SceneMetrics a = later;
  a.bias = now.bias;
  a.biasPending = now.biasPending;
  expectSameMetrics(a, now);
  for (int axis = 0; axis < 4; ++axis)
    EXPECT_EQ(a.visualAxes.index[axis], now.visualAxes.index[axis]);
}

void expectSameBias(const ropescope::BiasResult& a, const ropescope::BiasResult& b) {
  EXPECT_PRED2(sameNumber, a.spread, b.spread);  // bit for bit, or undefined in both
  EXPECT_EQ(a.undefinedReason, b.undefinedReason);
  EXPECT_EQ(a.perText, b.perText);
  EXPECT_EQ(a.meanBias, b.meanBias);
}

}  // namespace

// The desktop app shows a mid-size scene's ids before its bias spread (SceneModel): the rest of
// the metrics are those of the whole computation, and the spread computed alone from the scene
// is the whole computation's, bit for bit, on every design's ids (diagonal text, off-diagonal
// text, no visual token) and thread count.
TEST(SceneMetricsLater, TheSpreadAloneIsTheWholeComputationsAndTheRestIsUnchanged) {
  struct Case {
    std::string design, layout;
  };
  const std::vector<Case> cases = {{"circle", "t40,i32x64,t40"},  {"mrope", "t7,i9x11,t5"},
                                   {"videorope", "t6,v3x4x5,t6"}, {"mrope-reset", "t5,i6x6,t4"},
                                   {"vrope", "t8,i5x7,t3"},       {"hard", "t12"}};
  for (const Case& c : cases) {
    Scene s = baseScene();
    s.layout = ropescope::parseLayoutSpec(c.layout);
    s.design = c.design;
    s.designParams = {};
    for (int threads : {1, 2}) {
      SCOPED_TRACE(c.design + " " + c.layout + " threads " + std::to_string(threads));
      const ropescope::SceneMetrics now = ropescope::computeSceneMetrics(s, 32, threads);
      const ropescope::SceneMetrics later =
          ropescope::computeSceneMetrics(s, 32, threads, ropescope::BiasSpreadWhen::Later);
      EXPECT_FALSE(now.biasPending);
      EXPECT_TRUE(later.biasPending);
      // No result at all: not a number, and not an undefined one with a reason either.
      EXPECT_TRUE(std::isnan(later.bias.spread));
      EXPECT_TRUE(later.bias.undefinedReason.empty());
      EXPECT_TRUE(later.bias.perText.empty());
      expectSameButTheBias(later, now);
      expectSameBias(ropescope::sceneBiasSpread(s, threads), now.bias);
      expectSameBias(ropescope::sceneBiasSpread(s, 3 - threads), now.bias);
    }
  }
  // A text-only scene: the spread is undefined, with the core's reason, alone as whole.
  Scene text = baseScene();
  text.layout = ropescope::parseLayoutSpec("t12");
  EXPECT_FALSE(ropescope::computeSceneMetrics(text, 8, 1).bias.defined());
  expectSameBias(ropescope::sceneBiasSpread(text, 1),
                 ropescope::computeSceneMetrics(text, 8, 1).bias);
}

TEST(SceneMetricsLater, TheSpreadAloneRefusesAnInvalidScene) {
  Scene s = baseScene();
  s.designParams.set("alpha", 7.0);
  EXPECT_THROW(ropescope::sceneBiasSpread(s, 1), ropescope::InputError);
}

// A selection change keeps the spread pending (it does not read the selection); a frequency
// change computes it, as a whole computation of the new scene does.
TEST(SceneMetricsLater, AnUpdateKeepsOrComputesTheSpreadAsItsPartsSay) {
  const Scene before = baseScene();
  Scene click = before;
  click.selectedText = 7;
  ropescope::SceneMetrics m =
      ropescope::computeSceneMetrics(before, 32, 1, ropescope::BiasSpreadWhen::Later);
  ropescope::updateSceneMetrics(m, click, ropescope::sceneChanges(before, click), 32, 1);
  EXPECT_TRUE(m.biasPending);
  expectSameButTheBias(m, ropescope::computeSceneMetrics(click, 32, 1));

  Scene base = before;
  base.frequency.rotary.base = 500000.0;
  m = ropescope::computeSceneMetrics(before, 32, 1, ropescope::BiasSpreadWhen::Later);
  ropescope::updateSceneMetrics(m, base, ropescope::sceneChanges(before, base), 32, 1);
  EXPECT_FALSE(m.biasPending);
  expectSameMetrics(m, ropescope::computeSceneMetrics(base, 32, 1));
}
