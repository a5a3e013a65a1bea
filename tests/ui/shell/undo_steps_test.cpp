// Edit → Undo and Redo as a user meets them in the window: each committed edit (a value typed and
// Return, a combo box's choice, a spin box's arrow) is one step, a slider dragged with the mouse
// is one step, and Ctrl+Z with the cursor still in a field that has nothing of its own left to
// undo undoes the scene's edit. Ten layouts committed with Return undid in one step and Redo
// jumped to the last; after "alpha = -5" and Return, Ctrl+Z in the field did nothing.
#include <gtest/gtest.h>

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QKeySequence>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTest>

#include <random>
#include <string>
#include <vector>

#include "editors/parameter_editor.h"
#include "editors/scene_panel.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

struct UndoWindow {
  MainWindow w;
  UndoWindow() {
    w.setDarkPalette(true);
    w.model()->setScene(fixedScene());
    w.model()->clearHistory();
    w.resize(1400, 900);
    showAndSettle(&w);
    w.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&w));
  }
  SceneModel& model() const { return *w.model(); }
  ScenePanel* panel() const { return w.panel(); }
  ParameterEditor* alphaEditor() const { return panel()->parameterEditor("alpha"); }
  QDoubleSpinBox* alphaBox() const { return alphaEditor()->findChild<QDoubleSpinBox*>(); }
  QSlider* alphaSlider() const { return alphaEditor()->findChild<QSlider*>(); }
  QLineEdit* layoutLine() const {
    return panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  }
};

// The key of a standard shortcut (Undo, Redo), pressed where the keyboard focus is, as a user
// presses it: the shortcut goes through the window's shortcut map.
void press(QKeySequence::StandardKey key) {
  const QKeyCombination k = QKeySequence(key)[0];
  QWidget* target = QApplication::focusWidget();
  ASSERT_NE(target, nullptr);
  QTest::keyClick(target, k.key(), k.keyboardModifiers());
}

// Types `text` over a field's contents and presses Return; the cursor stays in the field.
void typeAndReturn(QWidget* field, const QString& text) {
  ASSERT_NE(field, nullptr);
  field->setFocus(Qt::TabFocusReason);
  if (auto* line = qobject_cast<QLineEdit*>(field)) line->selectAll();
  if (auto* box = qobject_cast<QAbstractSpinBox*>(field)) box->selectAll();
  QTest::keyClicks(field, text);
  QTest::keyClick(field, Qt::Key_Return);
}

// The slider's handle, where a user grabs it.
QPoint handleCentre(QSlider* s) {
  QStyleOptionSlider opt;
  opt.initFrom(s);
  opt.orientation = s->orientation();
  opt.minimum = s->minimum();
  opt.maximum = s->maximum();
  opt.sliderPosition = s->sliderPosition();
  opt.sliderValue = s->value();
  opt.singleStep = s->singleStep();
  opt.pageStep = s->pageStep();
  opt.upsideDown = s->invertedAppearance();
  opt.tickPosition = s->tickPosition();
  opt.tickInterval = s->tickInterval();
  if (s->orientation() == Qt::Horizontal) opt.state |= QStyle::State_Horizontal;
  return s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s).center();
}

// Grabs the handle and drags it `dx` pixels (towards the middle), through several values.
void dragSlider(QSlider* s, int dx) {
  const QPoint from = handleCentre(s);
  const bool rightHalf = s->value() > (s->minimum() + s->maximum()) / 2;
  drag(s, from, from + QPoint(rightHalf ? -dx : dx, 0), 8);
}

// What the user can check on screen: the panel shows the scene's layout and alpha.
void expectPanelShows(const UndoWindow& win, const Scene& scene, const std::string& where) {
  EXPECT_EQ(win.layoutLine()->text().toStdString(), formatLayoutSpec(scene.layout)) << where;
  const double alpha =
      scene.designParams.find("alpha").value_or(win.alphaEditor()->spec().defaultValue);
  EXPECT_DOUBLE_EQ(win.alphaEditor()->value(), alpha) << where;
}

}  // namespace

// Ten layouts typed into the layout line, each with Return, even 7 s apart, were undone in one
// step. Each is a step: Ctrl+Z with the cursor still in the line goes back one layout at a time,
// and Redo forward one at a time.
TEST(UndoSteps, LayoutsCommittedWithReturnUndoOneAtATime) {
  UndoWindow win;
  std::vector<Scene> states{win.model().scene()};
  for (int i = 1; i <= 10; ++i) {
    typeAndReturn(win.layoutLine(), QStringLiteral("t%1,i2x3").arg(i));
    ASSERT_FALSE(win.model().problem()) << i;
    ASSERT_NE(win.model().scene(), states.back()) << i;
    states.push_back(win.model().scene());
  }
  ASSERT_TRUE(win.layoutLine()->hasFocus());
  for (std::size_t k = states.size() - 1; k-- > 0;) {
    press(QKeySequence::Undo);
    ASSERT_EQ(win.model().scene(), states[k]) << "Ctrl+Z to layout " << k;
    expectPanelShows(win, states[k], "undo to " + std::to_string(k));
  }
  EXPECT_FALSE(win.model().canUndo());
  for (std::size_t k = 1; k < states.size(); ++k) {
    press(QKeySequence::Redo);
    ASSERT_EQ(win.model().scene(), states[k]) << "redo to layout " << k;
    expectPanelShows(win, states[k], "redo to " + std::to_string(k));
  }
  EXPECT_FALSE(win.model().canRedo());
}

// α = −5 typed and Return: refused beside the field. Ctrl+Z with the cursor still in the field
// (its typing handed over, nothing of its own to undo) undoes the scene's edit: α is back and
// the message gone. Typing not yet committed stays the field's own to undo.
TEST(UndoSteps, CtrlZInACommittedFieldUndoesTheScene) {
  UndoWindow win;
  const Scene before = win.model().scene();
  typeAndReturn(win.alphaBox(), QStringLiteral("-5"));
  ASSERT_TRUE(win.model().problem());
  EXPECT_FALSE(win.panel()->errorFor(QStringLiteral("alpha")).isEmpty());
  ASSERT_TRUE(win.alphaBox()->hasFocus() ||
              win.alphaBox()->isAncestorOf(QApplication::focusWidget()));
  press(QKeySequence::Undo);
  EXPECT_EQ(win.model().scene(), before);
  EXPECT_FALSE(win.model().problem());
  EXPECT_TRUE(win.panel()->errorFor(QStringLiteral("alpha")).isEmpty());
  expectPanelShows(win, before, "after Ctrl+Z");
  press(QKeySequence::Redo);
  EXPECT_TRUE(win.model().problem());
  EXPECT_DOUBLE_EQ(win.alphaEditor()->value(), -5.0);

  // Typing in progress: Ctrl+Z takes back the typing, not the scene's edit.
  const Scene redone = win.model().scene();
  QLineEdit* line = win.layoutLine();
  line->setFocus(Qt::TabFocusReason);
  const QString shown = line->text();
  line->end(false);
  QTest::keyClicks(line, QStringLiteral(",t1"));
  press(QKeySequence::Undo);
  EXPECT_EQ(line->text(), shown);
  EXPECT_EQ(win.model().scene(), redone);
  // The typing undone, nothing of the field's is left: the next Ctrl+Z is the scene's.
  press(QKeySequence::Undo);
  EXPECT_EQ(win.model().scene(), before);
}

// A slider dragged through many values with the mouse is one step; the value typed after it is
// another, though both edit α.
TEST(UndoSteps, ASliderDragIsOneStep) {
  UndoWindow win;
  const Scene before = win.model().scene();
  QSlider* slider = win.alphaSlider();
  ASSERT_NE(slider, nullptr);
  int values = 0;
  QObject::connect(slider, &QSlider::valueChanged, [&values] { ++values; });
  dragSlider(slider, 60);
  ASSERT_GE(values, 3) << "the drag went through several values";
  const Scene dragged = win.model().scene();
  ASSERT_NE(dragged, before);
  typeAndReturn(win.alphaBox(), QStringLiteral("0.125"));
  ASSERT_NE(win.model().scene(), dragged);
  press(QKeySequence::Undo);
  EXPECT_EQ(win.model().scene(), dragged);
  press(QKeySequence::Undo);
  EXPECT_EQ(win.model().scene(), before);
  EXPECT_FALSE(win.model().canUndo());
}

// The class: random sequences of edits through the window (layouts and numbers typed with
// Return, refused values among them, slider drags, combo boxes and spin arrows from the
// keyboard), with Undo and Redo pressed at random between them. After every key the scene is
// the state the user walked to, and at the end Undo reaches every state back to the first and
// Redo every state forward to the last.
TEST(UndoSteps, RandomEditsUndoAndRedoToEveryState) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    UndoWindow win;
    std::mt19937 rng(seed);
    const auto pick = [&rng](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    std::vector<Scene> timeline{win.model().scene()};
    std::size_t at = 0;  // the state shown
    // An edit that changed the scene is a new state; the states after the shown one are gone.
    const auto edited = [&] {
      const Scene& now = win.model().scene();
      if (now == timeline[at]) return;  // no change (a combo at its end): no step
      timeline.resize(at + 1);
      timeline.push_back(now);
      at = timeline.size() - 1;
    };
    auto* base = win.panel()->findChild<QDoubleSpinBox*>(QStringLiteral("base"));
    auto* plan = win.panel()->findChild<QComboBox*>(QStringLiteral("plan"));
    auto* headDim = win.panel()->findChild<QSpinBox*>(QStringLiteral("head_dim"));
    auto* sections = win.panel()->findChild<QLineEdit*>(QStringLiteral("sections"));
    ASSERT_TRUE(base && plan && headDim && sections);
    for (int step = 0; step < 30; ++step) {
      const int action = pick(9);
      const std::string where =
          "step " + std::to_string(step) + ", action " + std::to_string(action);
      switch (action) {
        case 0:
          typeAndReturn(
              win.layoutLine(),
              QStringLiteral("t%1,i%2x%3").arg(1 + pick(6)).arg(1 + pick(4)).arg(1 + pick(4)));
          edited();
          break;
        case 1: {
          const QString alpha =
              pick(4) == 0 ? QStringLiteral("-5") : QString::number(0.05 * (1 + pick(19)));
          typeAndReturn(win.alphaBox(), alpha);
          edited();
          break;
        }
        case 2:
          typeAndReturn(base, QString::number(10000 * (1 + pick(50))));
          edited();
          break;
        case 3:
          dragSlider(win.alphaSlider(), 30 + pick(60));
          edited();
          break;
        case 4:
          plan->setFocus(Qt::TabFocusReason);
          QTest::keyClick(plan, pick(2) ? Qt::Key_Down : Qt::Key_Up);
          edited();
          break;
        case 5:
          headDim->setFocus(Qt::TabFocusReason);
          QTest::keyClick(headDim, pick(2) ? Qt::Key_Up : Qt::Key_Down);
          edited();
          break;
        case 6:
          typeAndReturn(sections, pick(2) ? QStringLiteral("16,24,24") : QStringLiteral("8,28,28"));
          edited();
          break;
        case 7:
          if (win.model().canUndo()) {
            press(QKeySequence::Undo);
            ASSERT_GT(at, 0u) << where;
            --at;
          }
          break;
        default:
          if (win.model().canRedo()) {
            press(QKeySequence::Redo);
            ASSERT_LT(at + 1, timeline.size()) << where;
            ++at;
          }
          break;
      }
      ASSERT_EQ(win.model().scene(), timeline[at]) << where;
      ASSERT_EQ(win.model().canUndo(), at > 0) << where;
      ASSERT_EQ(win.model().canRedo(), at + 1 < timeline.size()) << where;
    }
    ASSERT_GE(timeline.size(), 8u) << "the sequence made few steps";
    // Every state back to the first, then forward to the last, with the cursor where it is.
    while (at > 0) {
      press(QKeySequence::Undo);
      --at;
      ASSERT_EQ(win.model().scene(), timeline[at]) << "undo to state " << at;
      expectPanelShows(win, timeline[at], "undo to state " + std::to_string(at));
    }
    EXPECT_FALSE(win.model().canUndo());
    while (at + 1 < timeline.size()) {
      press(QKeySequence::Redo);
      ++at;
      ASSERT_EQ(win.model().scene(), timeline[at]) << "redo to state " << at;
      expectPanelShows(win, timeline[at], "redo to state " + std::to_string(at));
    }
    EXPECT_FALSE(win.model().canRedo());
  }
}
