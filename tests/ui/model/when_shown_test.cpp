// Dirty until shown (model/when_shown.h): a hidden view's refresh waits for its next show, a
// seen one refreshes at once; the main window's phasor and 3-D views follow it.
#include <gtest/gtest.h>

#include <QTabWidget>

#include "gui_test_util.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/phasor.h"
#include "ropescope/scene_metrics.h"
#include "shell/main_window.h"
#include "space/scene_space_view.h"
#include "teaching/phasor_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

TEST(WhenShown, HiddenTabWaitsForItsShowSeenTabRefreshesAtOnce) {
  QTabWidget tabs;
  auto* seen = new QWidget;
  auto* hidden = new QWidget;
  tabs.addTab(seen, QStringLiteral("seen"));
  tabs.addTab(hidden, QStringLiteral("hidden"));
  int seenRuns = 0, hiddenRuns = 0;
  auto* seenShown = new WhenShown(seen, [&] { ++seenRuns; });
  auto* hiddenShown = new WhenShown(hidden, [&] { ++hiddenRuns; });
  // Before the window is shown nothing decides what is seen: both run.
  hiddenShown->request();
  EXPECT_EQ(hiddenRuns, 1);
  tabs.show();
  ASSERT_TRUE(waitUntil([&] { return seen->isVisible(); }));
  seenShown->request();
  hiddenShown->request();
  hiddenShown->request();
  EXPECT_EQ(seenRuns, 1);
  EXPECT_EQ(hiddenRuns, 1);
  EXPECT_FALSE(seenShown->dirty());
  EXPECT_TRUE(hiddenShown->dirty());
  tabs.setCurrentWidget(hidden);  // shown: one refresh for the two requests
  EXPECT_EQ(hiddenRuns, 2);
  EXPECT_FALSE(hiddenShown->dirty());
  tabs.setCurrentWidget(seen);
  tabs.setCurrentWidget(hidden);  // shown again, nothing pending: no refresh
  EXPECT_EQ(hiddenRuns, 2);
}

TEST(WhenShown, MainWindowHiddenViewsCatchUpWhenShown) {
  MainWindow w;
  w.model()->setScene(fixedScene());
  w.resize(1400, 900);
  w.show();
  ASSERT_TRUE(waitUntil([&] { return w.spaceView()->isVisible(); }));
  w.showSideTab(QStringLiteral("charts"));
  PhasorView* phasor = w.phasorView();
  ASSERT_FALSE(phasor->isVisible());
  const double biasBefore = phasor->phasor().bias;
  // A new base changes every pair's θ: the hidden phasor view waits.
  w.model()->edit([](Scene& s) { s.frequency.rotary.base = 500.0; });
  EXPECT_TRUE(phasor->dirty());
  EXPECT_EQ(phasor->phasor().bias, biasBefore);
  w.showSideTab(QStringLiteral("phasor"));
  EXPECT_FALSE(phasor->dirty());
  const Phasor expected = computePhasor(w.model()->metrics().pairs, phasor->delta());
  EXPECT_EQ(phasor->phasor().bias, expected.bias);
  EXPECT_NE(phasor->phasor().bias, biasBefore);

  // Compare mode hides the main 3-D view: a click waits for it.
  auto* space = static_cast<SceneSpaceView*>(w.spaceView());
  w.setCompareMode(true);
  ASSERT_FALSE(space->isVisible());
  const long before = space->selectedToken();
  ASSERT_EQ(before, w.model()->metrics().selectedToken);
  const int builds = space->geometryBuilds();
  w.model()->setSelectedText(5);  // another text token: the cone moves, once seen
  ASSERT_NE(w.model()->metrics().selectedToken, before);
  EXPECT_TRUE(space->dirty());
  EXPECT_EQ(space->selectedToken(), before);
  w.setCompareMode(false);
  EXPECT_FALSE(space->dirty());
  EXPECT_EQ(space->selectedToken(), w.model()->metrics().selectedToken);
  EXPECT_EQ(space->geometryBuilds(), builds);  // a selection: no new token geometry
}
