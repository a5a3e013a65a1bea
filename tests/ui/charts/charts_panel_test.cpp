// The Charts tab: a long profile is drawn decimated to the
// plot's pixel columns while the numbers behind it stay whole, and a hidden tab does nothing
// on a model change until it is shown.
#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QTabWidget>

#include <algorithm>
#include <cmath>
#include <vector>

#include "charts/charts_panel.h"
#include "figures/zero_bar_labels.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

Scene sceneWith(const std::string& spec) {
  Scene s = fixedScene();
  s.layout = parseLayoutSpec(spec);
  return s;
}

QLineSeries* profileSeries(ChartsPanel* panel, const QString& name) {
  for (QChartView* view : panel->findChildren<QChartView*>())
    if (view->chart()->title().startsWith(QStringLiteral("Text token")))
      for (QAbstractSeries* s : view->chart()->series())
        if (s->name() == name) return qobject_cast<QLineSeries*>(s);
  return nullptr;
}

// The panel shown tall enough for every chart, and its "PTD of every design" bar chart.
QChartView* showWithPtdBars(ChartsPanel& panel) {
  panel.resize(900, 1400);
  panel.show();
  return panel.findChild<QChartView*>(QStringLiteral("ptdBarsChart"));
}

}  // namespace

TEST(ChartsPanel, DrawsALongProfileDecimatedWithItsExtremes) {
  SceneModel model;
  model.setScene(sceneWith("t3,i150x150"));  // 22 500 visual tokens
  ASSERT_TRUE(model.waitForMetrics());
  ChartsPanel panel(&model);
  panel.resize(900, 700);
  panel.show();
  QLineSeries* distance = profileSeries(&panel, QStringLiteral("distance"));
  QLineSeries* bias = profileSeries(&panel, QStringLiteral("bias"));
  ASSERT_TRUE(distance && bias);
  ASSERT_TRUE(waitUntil([&] { return distance->chart()->plotArea().width() > 0; }));
  const SceneMetrics& m = model.metrics();
  const std::size_t n = m.selectedDistance.size();
  ASSERT_EQ(n, 22500u);
  EXPECT_EQ(panel.profilePointCount(), 22500);
  // At most four points a pixel column of a plot under 900 pixels wide, for each curve.
  ASSERT_TRUE(waitUntil([&] { return panel.drawnProfilePoints() < 2 * 4 * 900; }));
  EXPECT_GT(distance->count(), 0);
  for (auto [series, values] :
       {std::pair{distance, &m.selectedDistance}, std::pair{bias, &m.selectedBias}}) {
    const QList<QPointF> drawn = series->points();
    // Every drawn point is a point of the profile; the first, last, lowest and highest are drawn.
    for (const QPointF& p : drawn) {
      const auto i = static_cast<std::size_t>(p.x());
      ASSERT_LT(i, n);
      ASSERT_EQ(p.y(), (*values)[i]) << series->name().toStdString() << " at " << i;
    }
    EXPECT_EQ(drawn.front().x(), 0.0);
    EXPECT_EQ(drawn.back().x(), static_cast<double>(n - 1));
    const auto [lo, hi] = std::minmax_element(values->begin(), values->end());
    const auto [dlo, dhi] = std::minmax_element(drawn.begin(), drawn.end(),
                                                [](QPointF a, QPointF b) { return a.y() < b.y(); });
    EXPECT_EQ(dlo->y(), *lo);
    EXPECT_EQ(dhi->y(), *hi);
  }
}

TEST(ChartsPanel, HiddenTabWaitsUntilShown) {
  SceneModel model;
  model.setScene(sceneWith("t4,i6x6"));
  ASSERT_TRUE(model.waitForMetrics());
  QTabWidget tabs;
  auto* panel = new ChartsPanel(&model);
  tabs.addTab(panel, QStringLiteral("Charts"));
  tabs.addTab(new QWidget, QStringLiteral("Other"));
  tabs.resize(900, 700);
  tabs.show();
  ASSERT_TRUE(waitUntil([&] { return panel->isVisible(); }));
  tabs.setCurrentIndex(1);
  ASSERT_TRUE(waitUntil([&] { return !panel->isVisible(); }));
  const int refreshes = panel->refreshes(), draws = panel->profileDraws();
  // Clicks on text tokens and an edit of the layout while another tab is in front: nothing.
  for (int text : {1, 2, 3}) {
    model.setSelectedText(text);
    ASSERT_TRUE(model.waitForMetrics());
  }
  EXPECT_EQ(panel->profileDraws(), draws);
  model.setScene(sceneWith("t4,i8x8"));
  ASSERT_TRUE(model.waitForMetrics());
  model.flushSummaries();
  EXPECT_EQ(panel->refreshes(), refreshes);
  EXPECT_EQ(panel->profileDraws(), draws);
  // Shown: one refresh catches up with all of it.
  tabs.setCurrentIndex(0);
  ASSERT_TRUE(waitUntil([&] { return panel->isVisible(); }));
  EXPECT_EQ(panel->refreshes(), refreshes + 1);
  EXPECT_GT(panel->profileDraws(), draws);
  EXPECT_EQ(panel->profilePointCount(), 64);
  EXPECT_EQ(profileSeries(panel, QStringLiteral("distance"))->count(), 64);
  // Shown, a click redraws the profile at once.
  const int shownDraws = panel->profileDraws();
  model.setSelectedText(0);
  ASSERT_TRUE(model.waitForMetrics());
  EXPECT_GT(panel->profileDraws(), shownDraws);
  EXPECT_EQ(panel->refreshes(), refreshes + 1);
}

// The live "PTD of every design" bars label a PTD of 0 (circle, unordered: Qt draws no label on
// a bar of length 0), once the comparison is in, and stop when the value leaves 0.
TEST(ChartsPanel, ZeroBarsReadZero) {
  SceneModel model;
  Scene s = sceneWith("i3x3,t5");
  model.setScene(s);
  model.flushSummaries();
  ChartsPanel panel(&model);
  auto* view = showWithPtdBars(panel);
  ASSERT_NE(view, nullptr);
  auto* labels = view->chart()->findChild<figure::ZeroBarLabels*>();
  ASSERT_NE(labels, nullptr);
  const auto& designs = model.designSummaries();
  std::vector<int> zero;
  for (std::size_t i = 0; i < designs.size(); ++i)
    if (std::abs(designs[i].ptd) < 1e-12) zero.push_back(static_cast<int>(i));
  ASSERT_GE(zero.size(), 2u);  // unordered and circle at least
  const auto shownIndices = [&] {
    std::vector<int> out;
    for (const auto& l : labels->shown()) out.push_back(l.index);
    return out;
  };
  ASSERT_TRUE(waitUntil([&] { return shownIndices() == zero; }));
  // Circle with Dual-Frame Fusion beta > 0 leaves the ring: its PTD is no longer 0.
  model.edit([](Scene& sc) { sc.designParams.set("dff", 0.5); });
  model.flushSummaries();
  const auto& after = model.designSummaries();
  std::vector<int> zeroAfter;
  for (std::size_t i = 0; i < after.size(); ++i)
    if (std::abs(after[i].ptd) < 1e-12) zeroAfter.push_back(static_cast<int>(i));
  ASSERT_NE(zeroAfter, zero);
  EXPECT_TRUE(waitUntil([&] { return shownIndices() == zeroAfter; }));
}

// A user's-eye report: after switching to another design and back with the design box, the PTD
// chart's Circle-RoPE row had neither its marker nor its colour. The marked row follows every
// switch, in both charts.
TEST(ChartsPanel, TheMarkedDesignFollowsEverySwitch) {
  SceneModel model;
  model.setScene(sceneWith("t4,i6x6,t8"));
  ASSERT_TRUE(model.waitForMetrics());
  ChartsPanel panel(&model);
  panel.resize(900, 1400);
  panel.show();
  const auto marked = [&](const char* chart) {
    auto* view = panel.findChild<QChartView*>(QLatin1String(chart));
    QStringList out;
    for (QAbstractAxis* axis : view->chart()->axes(Qt::Vertical))
      if (auto* c = qobject_cast<QBarCategoryAxis*>(axis))
        for (const QString& name : c->categories())
          if (name.startsWith(QStringLiteral("\u25b8 "))) out << name.mid(2);
    return out;
  };
  for (const char* design : {"hard", "circle", "mrope", "circle", "circle", "unordered"}) {
    SCOPED_TRACE(design);
    model.chooseDesign(design, false);
    ASSERT_TRUE(model.waitForMetrics());
    model.flushSummaries();
    for (const char* chart : {"ptdBarsChart", "biasBarsChart"}) {
      EXPECT_TRUE(waitUntil([&] { return marked(chart) == QStringList{QLatin1String(design)}; }))
          << chart << ": " << marked(chart).join(QLatin1Char(',')).toStdString();
    }
    const auto& all = model.designSummaries();
    ASSERT_GE(panel.highlightedDesign(), 0);
    EXPECT_EQ(all[std::size_t(panel.highlightedDesign())].design, design);
  }
}

// A user's-eye report: dark -> light -> dark palette left the scene's bar in the light palette's
// magenta until the next edit. Each palette colours the marked bar at once.
TEST(ChartsPanel, TheMarkedBarTakesEachPalettesColour) {
  SceneModel model;
  model.setScene(sceneWith("t4,i6x6,t8"));
  model.chooseDesign("hard", false);
  ASSERT_TRUE(model.waitForMetrics());
  model.flushSummaries();
  ChartsPanel panel(&model);
  auto* view = showWithPtdBars(panel);
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(waitUntil([&] { return panel.highlightedDesign() >= 0; }));
  auto* series = qobject_cast<QAbstractBarSeries*>(view->chart()->series().value(0));
  ASSERT_NE(series, nullptr);
  const int row = panel.highlightedDesign();
  const qreal value = series->barSets()[0]->at(row);
  ASSERT_GT(value, 0);  // hard's PTD: a bar to look at
  const auto barColour = [&] {
    QCoreApplication::processEvents();
    const QPointF mid = view->chart()->mapToPosition(QPointF(value / 2, row), series);
    const QPoint at = view->mapFromScene(view->chart()->mapToScene(mid));
    return view->grab().toImage().pixelColor(at);
  };
  const auto near = [](QColor a, QColor b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
               std::abs(a.blue() - b.blue()) <
           40;
  };
  const QColor yellow(255, 214, 70), magenta(215, 40, 140);
  for (const bool dark : {true, false, true, false}) {
    panel.setDark(dark);
    const QColor c = barColour();
    EXPECT_TRUE(near(c, dark ? yellow : magenta))
        << (dark ? "dark" : "light") << ": " << c.name().toStdString();
  }
}
