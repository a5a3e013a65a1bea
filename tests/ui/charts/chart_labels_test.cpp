// when room was a little tight (1366 wide, or 1920 with the attention dock or
// the tour open) the charts dropped every other design name, ticks read "2..." and titles
// "distanc...". At each screen size and with each dock, every chart of the Charts tab shows
// every category label and tick label (none hidden for overlapping), and no title, axis title,
// tick or legend label is elided or tiny.
#include <gtest/gtest.h>

#include <QBarCategoryAxis>
#include <QChartView>
#include <QDockWidget>
#include <QTabWidget>

#include "chart_items.h"
#include "charts/charts_panel.h"
#include "gui_test_util.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "screen_util.h"
#include "shell/main_window.h"
#include "teaching/tour.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

constexpr int kSmallestPixels = 8;  // smaller text is not readable on a laptop screen

void expectReadableCharts(MainWindow& w, const std::string& where) {
  ASSERT_TRUE(waitUntil([&] { return !w.model()->summariesPending(); }));
  QCoreApplication::processEvents();
  const auto views = w.charts()->findChildren<QChartView*>();
  ASSERT_EQ(views.size(), 5);
  for (QChartView* view : views) {
    const std::string chart = where + ", chart \"" + view->chart()->title().toStdString() + "\"";
    // Laid out at the size shown (a chart relayouts on the next event after a resize).
    QCoreApplication::processEvents();
    const std::vector<ChartText> texts = chartTexts(view);
    // Whole across: the Charts tab scrolls up and down, never cuts a chart at its right edge.
    const QRect across(view->mapTo(w.charts(), QPoint(0, 0)), view->size());
    EXPECT_GE(across.left(), 0) << chart;
    EXPECT_LE(across.right(), w.charts()->width() - 1) << chart << " is cut at the right";
    EXPECT_GE(texts.size(), 8u) << chart;
    // Axis titles a narrow chart leaves out on purpose (its legend names the curves).
    QStringList leftOut;
    for (QAbstractAxis* axis : view->chart()->axes())
      if (!axis->isTitleVisible()) leftOut << axis->titleText();
    for (const ChartText& t : texts) {
      if (!t.visible && leftOut.contains(t.text)) continue;
      // Qt Charts hides a label that would overlap its neighbour: a dropped tick or name.
      EXPECT_TRUE(t.visible) << chart << ": \"" << t.text.toStdString() << "\" is hidden";
      if (!t.visible) continue;
      EXPECT_FALSE(elided(t.text)) << chart << ": \"" << t.text.toStdString() << "\" is cut";
      EXPECT_GE(t.pixelSize, kSmallestPixels)
          << chart << ": \"" << t.text.toStdString() << "\" at " << t.pixelSize << " px";
    }
    for (QAbstractAxis* axis : view->chart()->axes()) {
      auto* categories = qobject_cast<QBarCategoryAxis*>(axis);
      if (!categories) continue;
      for (const QString& name : categories->categories()) {
        const bool shown = std::any_of(texts.begin(), texts.end(), [&](const ChartText& t) {
          return t.visible && t.text == name;
        });
        EXPECT_TRUE(shown) << chart << ": the label \"" << name.toStdString() << "\" is hidden";
      }
    }
  }
}

// Every design gives other numbers (and so other tick labels) on the start scene.
void expectReadableForEveryDesign(MainWindow& w, const std::string& where) {
  const auto designs = w.model()->designSummaries();
  ASSERT_GE(designs.size(), 4u);
  for (const auto& d : designs) {
    w.model()->edit([&](Scene& s) {
      s.design = d.design;
      s.designParams = {};
    });
    expectReadableCharts(w, where + ", design " + d.design);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ChartLabels, EveryLabelReadsInFullWithEveryDock) {
  expectManagedScreen();
  MainWindow w;
  w.show();
  w.startWith(sampleScene());
  w.showSideTab(QStringLiteral("charts"));
  ASSERT_TRUE(waitForFrame(&w));
  expectReadableCharts(w, "as started");
  expectReadableForEveryDesign(w, "as started");
  w.startWith(sampleScene());
  w.attentionDock()->show();
  expectReadableCharts(w, "with the attention dock");
  w.startTour();
  w.showSideTab(QStringLiteral("charts"));
  expectReadableCharts(w, "with the attention dock and the tour");
  w.attentionDock()->hide();
  expectReadableCharts(w, "with the tour");
  expectReadableForEveryDesign(w, "with the tour");
  w.tourPanel()->finish();
  w.startWith(w.model()->scene());
}

}  // namespace
