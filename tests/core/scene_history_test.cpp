// Undo and redo of scene edits (ropescope/scene_history.h): a dragged slider is one step, an
// edit of another field or a committed edit a new one, a selection click none; undo and redo
// walk back and forth.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "ropescope/scene_history.h"

using ropescope::Scene;
using ropescope::SceneHistory;

namespace {

Scene withAlpha(Scene s, double alpha) {
  s.designParams.set("alpha", alpha);
  return s;
}

// `count` edits from `start`, alternating between two fields so that each is a step of its own;
// then every step undone. Returns how many steps there were to undo.
std::size_t editsThenUndoAll(SceneHistory& h, const Scene& start, std::size_t count) {
  Scene now = start;
  for (std::size_t i = 0; i < count; ++i) {
    Scene next = now;
    if (i % 2)
      next.frequency.rotary.base = 10000 + static_cast<double>(i);
    else
      next.designParams.set("alpha", 0.001 * static_cast<double>(i));
    h.record(now, next);
    now = next;
  }
  std::size_t steps = 0;
  while (h.canUndo()) {
    now = h.undo(now);
    ++steps;
  }
  return steps;
}

}  // namespace

TEST(SceneHistory, ChangedFieldsNameTheFieldsAnEditChanged) {
  const Scene a = ropescope::defaultScene();
  Scene b = withAlpha(a, 0.25);
  b.frequency.rotary.base = 20000;
  EXPECT_EQ(SceneHistory::changedFields(a, b),
            (std::set<std::string>{"base", "design_params.alpha"}));
  Scene c = a;
  c.layout = ropescope::parseLayoutSpec("t2,i3x3");
  EXPECT_EQ(SceneHistory::changedFields(a, c), (std::set<std::string>{"layout"}));
  Scene d = a;
  d.selectedText = a.selectedText + 1;
  EXPECT_TRUE(SceneHistory::changedFields(a, d).empty());  // the selection is no edit
  Scene e = a;
  e.fileIds = {{0.0, 0.0, 0.0}};  // not in the field table: still an edit
  EXPECT_EQ(SceneHistory::changedFields(a, e), (std::set<std::string>{""}));
}

TEST(SceneHistory, ADraggedSliderIsOneStepAndAnotherFieldANewOne) {
  SceneHistory h;
  const Scene start = ropescope::defaultScene();
  Scene now = start;
  for (double alpha : {0.1, 0.2, 0.3, 0.4}) {  // a drag
    const Scene next = withAlpha(now, alpha);
    h.record(now, next);
    now = next;
  }
  Scene selected = now;
  selected.selectedText += 1;  // a click between the edits: no step, the drag's step stays
  h.record(now, selected);
  now = selected;
  Scene based = now;
  based.frequency.rotary.base = 30000;
  h.record(now, based);
  now = based;
  ASSERT_TRUE(h.canUndo());
  EXPECT_FALSE(h.canRedo());
  Scene back = h.undo(now);
  EXPECT_EQ(back, selected);  // before the base edit
  back = h.undo(back);
  EXPECT_EQ(back.designParams, start.designParams);  // before the whole drag
  EXPECT_FALSE(h.canUndo());
  ASSERT_TRUE(h.canRedo());
  Scene forward = h.redo(back);
  EXPECT_EQ(forward, selected);
  forward = h.redo(forward);
  EXPECT_EQ(forward, based);
  EXPECT_FALSE(h.canRedo());
  // An undo, then a new edit: the redo list is gone.
  back = h.undo(forward);
  const Scene other = withAlpha(back, 0.9);
  h.record(back, other);
  EXPECT_FALSE(h.canRedo());
  // After an undo, an edit of the same field as the step before is a step of its own.
  EXPECT_EQ(h.undo(other), back);
}

// Ten layouts committed one after another (each with Return) are ten steps, though each edits
// the same field: undo goes back one layout at a time and redo forward one at a time. Without
// endStep() they merged into one step, and Redo jumped to the last layout.
TEST(SceneHistory, EachEndedEditIsAStepOfItsOwn) {
  SceneHistory h;
  std::vector<Scene> states{ropescope::defaultScene()};
  for (int i = 1; i <= 10; ++i) {
    Scene next = states.back();
    next.layout = ropescope::parseLayoutSpec("t" + std::to_string(i) + ",i2x2");
    h.record(states.back(), next);
    h.endStep();
    states.push_back(next);
  }
  Scene now = states.back();
  for (std::size_t k = states.size() - 1; k-- > 0;) {
    ASSERT_TRUE(h.canUndo()) << "state " << k;
    now = h.undo(now);
    EXPECT_EQ(now, states[k]) << "undo to state " << k;
  }
  EXPECT_FALSE(h.canUndo());
  for (std::size_t k = 1; k < states.size(); ++k) {
    ASSERT_TRUE(h.canRedo()) << "state " << k;
    now = h.redo(now);
    EXPECT_EQ(now, states[k]) << "redo to state " << k;
  }
  EXPECT_FALSE(h.canRedo());
}

TEST(SceneHistory, KeepsTheNewestStepsAndClears) {
  SceneHistory h;
  const std::size_t steps =
      editsThenUndoAll(h, ropescope::defaultScene(), SceneHistory::kMaxSteps + 10);
  EXPECT_EQ(steps, SceneHistory::kMaxSteps);
  h.clear();
  EXPECT_FALSE(h.canUndo());
  EXPECT_FALSE(h.canRedo());
}

// Scenes with many loaded ids are kept by bytes, not only by count: 200 steps of a scene holding
// a million ids would be 4.8 GB.
TEST(SceneHistory, KeepsAtMostItsBytes) {
  SceneHistory h;
  Scene big = ropescope::defaultScene();
  big.fileIds.assign(1000000, {0.0, 0.0, 0.0});
  const std::size_t each = SceneHistory::footprint(big);
  ASSERT_GE(each, std::size_t{24000000});
  const std::size_t steps = editsThenUndoAll(h, big, 16);  // 16 x 24 MB: past the 256 MiB
  EXPECT_GE(steps, 1u);
  EXPECT_LE(steps * each, SceneHistory::kMaxBytes);
  EXPECT_GT((steps + 1) * each, SceneHistory::kMaxBytes / 2);  // not far fewer than the room
}
