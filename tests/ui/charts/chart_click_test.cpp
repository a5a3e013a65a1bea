// clicking a bar of "PTD of every design" or "Bias spread of every design"
// crashed (the click switched the design, the refresh rebuilt the bars, and the view painted a
// bar item deleted inside its own click handler). Real mouse events on the chart view's
// viewport, at the bar's mapped position; afterwards the view paints and the app answers.
#include <gtest/gtest.h>

#include <QChartView>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

#include "chart_items.h"
#include "charts/charts_panel.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

QChartView* chartTitled(MainWindow& w, const QString& prefix) {
  for (QChartView* v : w.charts()->findChildren<QChartView*>())
    if (v->chart()->title().startsWith(prefix)) return v;
  return nullptr;
}

// The viewport of `view` paints now, and a zero-delay timer fires: the app is alive.
void expectPaintsAndAnswers(QChartView* view) {
  view->viewport()->repaint();
  bool fired = false;
  QTimer::singleShot(0, [&fired] { fired = true; });
  EXPECT_TRUE(waitUntil([&] { return fired; })) << "the event loop did not answer";
}

class ChartClick : public ::testing::TestWithParam<const char*> {};

TEST_P(ChartClick, ClickingEachDesignsBarSwitchesToItAndTheChartStillPaints) {
  MainWindow w;
  w.startWith(sampleScene());  // what a new user sees: the castle under Circle-RoPE
  w.showSideTab(QStringLiteral("charts"));
  showAndSettle(&w);
  QChartView* view = chartTitled(w, QString::fromUtf8(GetParam()));
  ASSERT_NE(view, nullptr) << GetParam();
  const auto designs = w.model()->designSummaries();
  ASSERT_GE(designs.size(), 4u);
  // "hard" first (the repro), then every other design whose bar can be hit.
  std::vector<int> order;
  for (int i = 0; i < int(designs.size()); ++i)
    if (designs[std::size_t(i)].design == "hard")
      order.insert(order.begin(), i);
    else
      order.push_back(i);
  int clicked = 0;
  for (int index : order) {
    std::vector<ChartSpot> spots = barSpots(view);
    const std::string name = designs[std::size_t(index)].design;
    const std::string want = "bar " + std::to_string(index) + " ";
    auto spot = std::find_if(spots.begin(), spots.end(),
                             [&](const ChartSpot& s) { return s.what.rfind(want, 0) == 0; });
    if (spot == spots.end()) continue;  // a zero bar: nothing to click
    hoverAndClick(view->viewport(), spot->pos);
    ASSERT_TRUE(waitUntil([&] { return w.model()->scene().design == name; }))
        << "clicking the bar of " << name << " did not switch to it";
    expectPaintsAndAnswers(view);
    EXPECT_EQ(w.charts()->highlightedDesign(), index);
    ++clicked;
  }
  EXPECT_GE(clicked, 3) << "too few bars could be clicked";
  w.startWith(w.model()->scene());  // no unsaved-changes prompt
}

// A user's-eye report: Circle-RoPE's PTD bar has length 0, so with another design current
// there was nothing to click to reach it. A click on a row's name or on the empty row beside it
// switches too.
TEST_P(ChartClick, ClickingTheRowOrTheNameOfABarOfLengthZeroSwitchesToItsDesign) {
  MainWindow w;
  Scene hard = sampleScene();
  hard.design = "hard";
  w.startWith(hard);
  w.showSideTab(QStringLiteral("charts"));
  showAndSettle(&w);
  w.model()->flushSummaries();
  QCoreApplication::processEvents();
  QChartView* view = chartTitled(w, QString::fromUtf8(GetParam()));
  ASSERT_NE(view, nullptr) << GetParam();
  const auto designs = w.model()->designSummaries();
  int circle = -1;
  for (int i = 0; i < int(designs.size()); ++i)
    if (designs[std::size_t(i)].design == "circle") circle = i;
  ASSERT_GE(circle, 0);
  QChart* chart = view->chart();
  QAbstractSeries* series = chart->series().at(0);
  // The middle of the row's name left of the plot, then the row's right end in the plot. The
  // plot area is read after each switch back: the value axis's labels change its width.
  for (const bool onName : {true, false}) {
    SCOPED_TRACE(onName ? "on the name" : "at the row's right end");
    w.model()->chooseDesign("hard", false);
    ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
    QCoreApplication::processEvents();
    const QRectF plot = chart->plotArea();
    const QPointF rowCentre = chart->mapToPosition(QPointF(0, circle), series);
    const double x = onName ? plot.left() / 2 : plot.right() - 4;
    const QPoint at = view->mapFromScene(chart->mapToScene(QPointF(x, rowCentre.y())));
    hoverAndClick(view->viewport(), at);
    ASSERT_TRUE(waitUntil([&] { return w.model()->scene().design == "circle"; }))
        << "the click at " << at.x() << "," << at.y() << " left " << w.model()->scene().design;
    expectPaintsAndAnswers(view);
  }
  // Outside the rows (the value axis under the plot) nothing changes.
  w.model()->chooseDesign("hard", false);
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  QCoreApplication::processEvents();
  const QRectF plot = chart->plotArea();
  hoverAndClick(
      view->viewport(),
      view->mapFromScene(chart->mapToScene(QPointF(plot.center().x(), plot.bottom() + 6))));
  QCoreApplication::processEvents();
  QCoreApplication::processEvents();
  EXPECT_EQ(w.model()->scene().design, "hard");
  w.startWith(w.model()->scene());  // no unsaved-changes prompt
}

INSTANTIATE_TEST_SUITE_P(Bars, ChartClick,
                         ::testing::Values("PTD of every design", "Bias spread of every design"));

}  // namespace

// Found by the abuse test: Qt Charts 6.4 dereferenced the item under a press without checking
// for one, so a press where no chart item lies crashed. Every chart of the panel, pressed at a
// point outside its (shrunk) chart: the app stays up and the chart still paints.
TEST(ChartClick, APressWhereNoChartItemLiesDoesNotCrash) {
  MainWindow w;
  w.startWith(sampleScene());
  w.resize(1400, 950);
  showAndSettle(&w);
  w.showSideTab(QStringLiteral("charts"));
  QCoreApplication::processEvents();
  int pressed = 0;
  for (QChartView* v : w.charts()->findChildren<QChartView*>()) {
    if (!v->isVisible() || v->width() < 40 || v->height() < 40) continue;
    v->chart()->resize(10, 10);  // the chart covers the top-left corner only
    const QPoint empty(v->viewport()->width() - 5, v->viewport()->height() - 5);
    ASSERT_EQ(v->itemAt(empty), nullptr) << v->chart()->title().toStdString();
    QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, empty);
    ++pressed;
    expectPaintsAndAnswers(v);
  }
  EXPECT_GE(pressed, 4);  // decay, PTD, bias, profile, wavelengths: most are on screen
}
