#include "figures/row_names.h"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>

#include <algorithm>
#include <cmath>

#include "figures/figure_style.h"

namespace ropescope::ui::figure {

namespace {
constexpr double kGap = 9.0;  // layout px between a name and the axis line, clear of its ticks
}

RowNames* RowNames::attach(QChart* chart, QAbstractBarSeries* series, QBarCategoryAxis* axis) {
  return new RowNames(chart, series, axis);
}

RowNames::RowNames(QChart* chart, QAbstractBarSeries* series, QBarCategoryAxis* axis)
    : QObject(chart), chart_(chart), series_(series), axis_(axis), font_(axis->labelsFont()) {
  // As large as the axis's font, and no taller than a row: the names never touch.
  const int rows = std::max<int>(1, static_cast<int>(axis->count()));
  const double pitch = chart->plotArea().height() / rows;
  int px = font_.pixelSize() > 0 ? font_.pixelSize() : 12;
  for (; px > kMinLabelPixels; --px) {
    font_.setPixelSize(px);
    if (QFontMetricsF(font_).height() + 1 <= pitch) break;  // a pixel apart
  }
  font_.setPixelSize(px);
  // The values at the bars' ends are no taller than a row either (27 designs at 1050x750 left
  // the names at 8 px beside values at 13).
  for (QBarSet* set : series->barSets()) {
    QFont f = set->labelFont();
    if (QFontInfo(f).pixelSize() > px) {
      f.setPixelSize(px);
      set->setLabelFont(f);
    }
  }
  const QFontMetricsF metrics(font_);
  double widest = 0;
  for (const QString& name : axis->categories())
    widest = std::max(widest, metrics.horizontalAdvance(name));
  axis->setLabelsVisible(false);
  QMargins m = chart->margins();
  m.setLeft(m.left() + static_cast<int>(std::ceil(widest + kGap)));
  chart->setMargins(m);
  for (const QString& name : axis->categories()) {
    auto* item = new QGraphicsSimpleTextItem(name, chart);
    item->setFont(font_);
    item->setBrush(axis->labelsBrush());
    item->setPen(Qt::NoPen);
    item->setZValue(chart->zValue() + 10);
    items_.push_back(item);
  }
  connect(chart_, &QChart::plotAreaChanged, this, [this] { place(); });
  place();
}

void RowNames::place() {
  const QRectF plot = chart_->plotArea();
  const QFontMetricsF metrics(font_);
  for (std::size_t i = 0; i < items_.size(); ++i) {
    QGraphicsSimpleTextItem* item = items_[i];
    const QPointF at = chart_->mapToPosition(QPointF(0.0, static_cast<double>(i)), series_);
    item->setPos(plot.left() - kGap - metrics.horizontalAdvance(item->text()),
                 at.y() - metrics.height() / 2);
    item->setVisible(!plot.isEmpty());
  }
}

}  // namespace ropescope::ui::figure
