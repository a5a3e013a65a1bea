// Where a user can point at a chart: every bar of every bar series, points of line and scatter
// series, legend markers and axes (line, ticks, title), as positions in the chart view's
// viewport, and real mouse events (QTest on the viewport's window) that hover and click them.
#pragma once

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontInfo>
#include <QGraphicsItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QTest>
#include <QWidget>
#include <QXYSeries>

#include <string>
#include <vector>

namespace ropescope::ui::test {

struct ChartSpot {
  QPoint pos;        // in the chart view's viewport
  std::string what;  // "bar 3 of PTD", "legend", "axis", ...
};

inline QPoint toViewport(QChartView* view, QPointF scenePos) {
  return view->mapFromScene(scenePos);
}

// Every bar with a width of at least 2 px (a zero bar has nothing to click), at its middle.
inline std::vector<ChartSpot> barSpots(QChartView* view) {
  std::vector<ChartSpot> out;
  QChart* chart = view->chart();
  for (QAbstractSeries* s : chart->series()) {
    auto* bars = qobject_cast<QAbstractBarSeries*>(s);
    if (!bars) continue;
    const bool horizontal = bars->type() == QAbstractSeries::SeriesTypeHorizontalBar ||
                            bars->type() == QAbstractSeries::SeriesTypeHorizontalStackedBar ||
                            bars->type() == QAbstractSeries::SeriesTypeHorizontalPercentBar;
    for (QBarSet* set : bars->barSets())
      for (int i = 0; i < set->count(); ++i) {
        const double v = set->at(i);
        const QPointF mid = horizontal ? QPointF(v / 2, i) : QPointF(i, v / 2);
        const QPointF base = horizontal ? QPointF(0, i) : QPointF(i, 0);
        const QPointF a = chart->mapToScene(chart->mapToPosition(mid, bars));
        const QPointF b = chart->mapToScene(chart->mapToPosition(base, bars));
        if ((a - b).manhattanLength() < 1) continue;
        out.push_back({toViewport(view, a), "bar " + std::to_string(i) + " of \"" +
                                                chart->title().toStdString() + "\""});
      }
  }
  return out;
}

// Points of line and scatter series (at most `perSeries`, spread over the series).
inline std::vector<ChartSpot> pointSpots(QChartView* view, int perSeries = 6) {
  std::vector<ChartSpot> out;
  QChart* chart = view->chart();
  for (QAbstractSeries* s : chart->series()) {
    auto* xy = qobject_cast<QXYSeries*>(s);
    if (!xy || xy->count() == 0) continue;
    const int n = static_cast<int>(xy->count());
    const int step = std::max(1, n / perSeries);
    for (int i = 0; i < n; i += step)
      out.push_back({toViewport(view, chart->mapToScene(chart->mapToPosition(xy->at(i), xy))),
                     "point " + std::to_string(i) + " of " + xy->name().toStdString()});
  }
  return out;
}

// The legend's markers and every axis' line, labels and title: every visible graphics item of
// the legend and of the axes, at the middle of its bounding box.
inline std::vector<ChartSpot> legendAndAxisSpots(QChartView* view) {
  std::vector<ChartSpot> out;
  QChart* chart = view->chart();
  const QRectF plot = chart->mapToScene(chart->plotArea()).boundingRect();
  std::vector<QGraphicsItem*> items;
  if (chart->legend()->isVisible()) items.push_back(chart->legend());
  for (QGraphicsItem* item : view->scene()->items()) {
    if (!item->isVisible() || item == chart) continue;
    const QRectF r = item->sceneBoundingRect();
    if (r.isEmpty() || r.width() > plot.width() * 1.5 || r.height() > plot.height() * 1.5) continue;
    // Outside the plot area: axes, their labels and titles, the legend, the title.
    if (!plot.contains(r.center())) items.push_back(item);
  }
  for (QGraphicsItem* item : items)
    out.push_back({toViewport(view, item->sceneBoundingRect().center()), "legend/axis item"});
  // The axis lines themselves, at the plot area's edges.
  out.push_back({toViewport(view, QPointF(plot.left(), plot.center().y())), "left axis"});
  out.push_back({toViewport(view, QPointF(plot.center().x(), plot.bottom())), "bottom axis"});
  out.push_back({toViewport(view, QPointF(plot.right(), plot.center().y())), "right axis"});
  return out;
}

// Hover, then click, the way a mouse does: move onto the spot, press and release there.
inline void hoverAndClick(QWidget* viewport, QPoint pos) {
  QTest::mouseMove(viewport, pos);
  QCoreApplication::processEvents();
  QTest::mouseClick(viewport, Qt::LeftButton, {}, pos);
  QCoreApplication::processEvents();
}

}  // namespace ropescope::ui::test

namespace ropescope::ui::test {

// A text a chart shows: titles, axis titles, tick and category labels, legend labels.
struct ChartText {
  QString text;
  bool visible = false;
  QRectF rect;        // in scene coordinates
  int pixelSize = 0;  // of its font, as drawn
};

inline std::vector<ChartText> chartTexts(QGraphicsScene* scene) {
  std::vector<ChartText> out;
  for (QGraphicsItem* item : scene->items()) {
    ChartText t;
    QFont font;
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) {
      t.text = text->toPlainText();
      font = text->font();
    } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
      t.text = simple->text();
      font = simple->font();
    } else {
      continue;
    }
    if (t.text.trimmed().isEmpty()) continue;
    t.visible = item->isVisible();
    t.rect = item->sceneBoundingRect();
    t.pixelSize = QFontInfo(font).pixelSize();
    out.push_back(t);
  }
  return out;
}

inline std::vector<ChartText> chartTexts(QChartView* view) {
  return chartTexts(view->scene());
}

// Qt Charts shortens a text that does not fit with "..."; ours never end in an ellipsis.
inline bool elided(const QString& text) {
  return text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026));
}

}  // namespace ropescope::ui::test
