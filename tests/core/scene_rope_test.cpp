// What the desktop app shows of a scene's rope scaling, computed by core: the decay curves and
// wavelengths before the scaling (SceneMetrics' unscaled results, only with a scaling), the
// largest position id the dynamic and longrope types switch on, the list parameters' text form,
// and the scaling's problems found beside the other fields' (sceneProblems).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/scene.h"
#include "ropescope/scene_history.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/scene_problems.h"

using namespace ropescope;

namespace {

// Qwen2.5-VL's rotary settings with its YaRN block (docs/long-context.md).
Scene yarnScene() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,i6x6,t8");
  setDesign(s, "mrope");
  s.frequency.plan = "mrope";
  s.frequency.rotary = {128, 0, 1e6, PairLayout::NeoX};
  s.frequency.sections = {16, 24, 24};
  s.frequency.rope.type = "yarn";
  s.frequency.rope.params.set("factor", 4.0);
  s.frequency.rope.params.set("original_max_position_embeddings", 32768.0);
  return s;
}

Scene withoutScaling(Scene s) {
  s.frequency.rope = RopeScaling{};
  return s;
}

}  // namespace

// The unscaled curves are the decay of the same plan with no scaling, bit for bit, and the
// scaled ones differ from them where pairs were scaled (w: every pair divided by 4).
TEST(SceneRope, UnscaledDecayIsTheDecayOfTheUnscaledPlan) {
  const Scene scaled = yarnScene();
  const SceneMetrics m = computeSceneMetrics(scaled, 64);
  const SceneMetrics plain = computeSceneMetrics(withoutScaling(scaled), 64);
  for (int a = 0; a < 3; ++a) {
    ASSERT_EQ(m.decayAxisUnscaled[a].size(), 65u) << a;
    EXPECT_EQ(m.decayAxisUnscaled[a], plain.decayAxis[a]) << "axis " << a;
  }
  EXPECT_NE(m.decayAxis[2], plain.decayAxis[2]);  // the width pairs are all scaled
  ASSERT_EQ(m.wavelengthsUnscaled.size(), plain.wavelengths.size());
  for (std::size_t p = 0; p < plain.wavelengths.size(); ++p) {
    EXPECT_EQ(m.wavelengthsUnscaled[p].wavelength, plain.wavelengths[p].wavelength) << p;
    EXPECT_EQ(m.wavelengthsUnscaled[p].axis, plain.wavelengths[p].axis) << p;
  }
  // Pair 63 (w) is divided by 4: its wavelength four times the unscaled one.
  EXPECT_NEAR(*m.wavelengths[63].wavelength / *m.wavelengthsUnscaled[63].wavelength, 4.0, 1e-9);
  EXPECT_EQ(m.pairs.logitScale(), m.pairs.attentionFactor * m.pairs.attentionFactor);
  EXPECT_NEAR(m.pairs.attentionFactor, 1.138629436111989, 1e-12);
}

TEST(SceneRope, NoUnscaledCurvesWithoutAScaling) {
  const SceneMetrics plain = computeSceneMetrics(withoutScaling(yarnScene()), 64);
  for (const auto& curve : plain.decayAxisUnscaled) EXPECT_TRUE(curve.empty());
  EXPECT_TRUE(plain.wavelengthsUnscaled.empty());
  EXPECT_FALSE(plain.pairs.scaled());
  EXPECT_EQ(plain.pairs.logitScale(), 1.0);
}

// An edit that adds or removes the scaling updates the unscaled results in place, as a full
// computation gives them.
TEST(SceneRope, UpdatingTheScalingMatchesAFullComputation) {
  const Scene scaled = yarnScene(), plain = withoutScaling(scaled);
  SceneMetrics m = computeSceneMetrics(plain, 64);
  updateSceneMetrics(m, scaled, sceneChanges(plain, scaled), 64);
  const SceneMetrics full = computeSceneMetrics(scaled, 64);
  for (int a = 0; a < 3; ++a) EXPECT_EQ(m.decayAxisUnscaled[a], full.decayAxisUnscaled[a]);
  EXPECT_EQ(m.wavelengthsUnscaled.size(), full.wavelengthsUnscaled.size());
  updateSceneMetrics(m, plain, sceneChanges(scaled, plain), 64);
  for (const auto& curve : m.decayAxisUnscaled) EXPECT_TRUE(curve.empty());
  EXPECT_TRUE(m.wavelengthsUnscaled.empty());
}

// The largest id over every axis, rounded up, as the rotary forward's seq_len - 1.
TEST(SceneRope, MaxPositionIdFromTheSceneIds) {
  Scene s = yarnScene();
  const PositionIds ids = effectiveIds(s);
  double largest = 0.0;
  for (const Id3& id : ids.ids)
    for (double v : id) largest = std::max(largest, v);
  EXPECT_EQ(ropeMaxPositionId(ids), static_cast<long long>(largest));
  setRopeMaxPositionIdFromScene(s);
  EXPECT_EQ(s.frequency.rope.maxPositionId, static_cast<long long>(largest));

  PositionIds fractional;
  fractional.ids = {{0.0, 0.0, 0.0}, {1.25, 0.5, 0.0}};
  EXPECT_EQ(ropeMaxPositionId(fractional), 2);
  EXPECT_EQ(ropeMaxPositionId(PositionIds{}), 0);
}

TEST(SceneRope, ListTextReadsNumbersAndNamesABadItem) {
  EXPECT_EQ(parseRopeListText("1, 1.5,2 ", "short_factor"), (std::vector<double>{1, 1.5, 2}));
  EXPECT_TRUE(parseRopeListText("  ", "short_factor").empty());
  const std::vector<double> list = {1.0, 1.0500000000000000444, 3.25e-7};
  EXPECT_EQ(parseRopeListText(formatRopeListText(list), "long_factor"), list);
  for (const char* bad : {"1,,2", "1,x", "1;2", "nan"}) {
    try {
      parseRopeListText(bad, "long_factor");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "long_factor");
      EXPECT_NE(std::string(e.what()).find("long_factor expects numbers"), std::string::npos)
          << e.what();
    }
  }
}

// A bad factor and a bad base at once: the scaling's problem is found behind the base's, each
// with its own field, and the scaling is taken whole from the fallback.
TEST(SceneRope, ScalingProblemsAreListedBesideTheOthers) {
  const Scene good = yarnScene();
  Scene bad = good;
  bad.frequency.rotary.base = 0.5;
  bad.frequency.rope.params.set("factor", -1.0);
  const std::vector<InputError> problems = sceneProblems(bad, good);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].field(), "base");
  EXPECT_EQ(problems[1].field(), "factor");
  EXPECT_NE(std::string(problems[1].what()).find("factor"), std::string::npos);

  Scene missing = good;
  missing.frequency.rope.params.erase("original_max_position_embeddings");
  missing.selectedText = -3;
  const std::vector<InputError> both = sceneProblems(missing, good);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].field(), "original_max_position_embeddings");
  EXPECT_EQ(both[1].field(), "selected_text");
}

// Each rope edit is a step of its own in the undo history, as a design parameter is: a factor
// typed after the original length is undone alone, not with the type chosen before it.
TEST(SceneRope, EachRopeKeyIsAFieldOfTheUndoHistory) {
  const Scene plain = withoutScaling(yarnScene());
  const Scene yarn = yarnScene();
  EXPECT_EQ(SceneHistory::changedFields(plain, yarn), (std::set<std::string>{"rope.type"}));
  Scene factor = yarn;
  factor.frequency.rope.params.set("factor", 8.0);
  EXPECT_EQ(SceneHistory::changedFields(yarn, factor), (std::set<std::string>{"rope.factor"}));
  Scene longer = factor;
  longer.frequency.rope.params.erase("original_max_position_embeddings");
  longer.frequency.rope.maxPositionId = 7;
  EXPECT_EQ(
      SceneHistory::changedFields(factor, longer),
      (std::set<std::string>{"rope.original_max_position_embeddings", "rope.max_position_id"}));
  SceneHistory history;
  history.record(plain, yarn);
  history.record(yarn, factor);
  Scene original = factor;
  original.frequency.rope.params.set("original_max_position_embeddings", 65536.0);
  history.record(factor, original);
  EXPECT_EQ(history.undo(original), factor);
  EXPECT_EQ(history.undo(factor), yarn);
  EXPECT_EQ(history.undo(yarn), plain);
}
