// Which parts of a Scene an edit touches (scene_changes.h), and the metrics updated by part
// (updateSceneMetrics) against the metrics computed whole.
#include <gtest/gtest.h>

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

void expectSameMetrics(const ropescope::SceneMetrics& a, const ropescope::SceneMetrics& b) {
  EXPECT_EQ(a.designUsed, b.designUsed);
  EXPECT_EQ(a.ids.ids, b.ids.ids);
  EXPECT_EQ(a.pairs.theta, b.pairs.theta);
  EXPECT_EQ(a.ptd.ptd, b.ptd.ptd);
  EXPECT_EQ(a.bias.spread, b.bias.spread);
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
