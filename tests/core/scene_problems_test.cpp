// sceneProblems: every bad field of a scene found at once, each with the message validateScene
// gives when that field alone is bad.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ropescope/scene.h"
#include "ropescope/scene_problems.h"

using namespace ropescope;

namespace {

// What validateScene says of `scene`: its field and message, or nothing.
std::pair<std::string, std::string> firstProblem(const Scene& scene) {
  try {
    validateScene(scene);
  } catch (const InputError& e) {
    return {e.field(), e.what()};
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> listed(const std::vector<InputError>& problems) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const InputError& e : problems) out.emplace_back(e.field(), e.what());
  return out;
}

Scene circleScene() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,i6x6,t8");
  setDesign(s, "circle");
  return s;
}

}  // namespace

TEST(SceneProblems, NoneForAValidScene) {
  const Scene s = circleScene();
  EXPECT_TRUE(sceneProblems(s, s).empty());
}

// Three fields bad at once (a design parameter, the frequency plan's base, the selected text):
// each is listed, in validateScene's order, with the message it gets when it alone is bad.
TEST(SceneProblems, EveryBadFieldWithItsOwnMessage) {
  const Scene good = circleScene();
  Scene alpha = good, base = good, selected = good;
  alpha.designParams.set("alpha", 7.0);
  base.frequency.rotary.base = 0.5;
  selected.selectedText = -3;
  const auto alone = std::vector{firstProblem(alpha), firstProblem(base), firstProblem(selected)};
  EXPECT_EQ(alone[0].first, "alpha");
  EXPECT_EQ(alone[1].first, "base");
  EXPECT_EQ(alone[2].first, "selected_text");

  Scene all = good;
  all.designParams.set("alpha", 7.0);
  all.frequency.rotary.base = 0.5;
  all.selectedText = -3;
  const auto problems = sceneProblems(all, good);
  EXPECT_EQ(listed(problems), alone);
  EXPECT_EQ(listed(problems).front(), firstProblem(all));  // validateScene's first
}

// A parameter of a design the fallback does not have goes back to its default; an unknown
// design is taken from the fallback, so the fields behind it are still checked.
TEST(SceneProblems, OtherDesignsAndUnknownNames) {
  Scene good = circleScene();
  Scene s = good;
  setDesign(s, "v2pe");
  s.designParams.set("visual_stride", -1.0);
  s.frequency.rotary.headDim = 7;
  const auto problems = listed(sceneProblems(s, good));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].first, "visual_stride");
  EXPECT_EQ(problems[1].first, "head_dim");

  Scene unknown = good;
  unknown.design = "no-such-design";
  unknown.frequency.rotary.base = 0.5;
  const auto two = listed(sceneProblems(unknown, good));
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].first, "design");
  EXPECT_EQ(two[1].first, "base");
}

// The search ends where the fallback is bad in the same field: each field is taken over once,
// so a second look at the base stops it before the AGE layer behind it.
TEST(SceneProblems, EndsWhenTheFallbackIsBadToo) {
  Scene bad = circleScene();
  bad.frequency.rotary.base = 0.5;
  bad.ageLayer = 1000;
  const auto problems = listed(sceneProblems(bad, bad));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].first, "base");
}
