#include "figures/zero_bar_labels.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>

namespace ropescope::ui::figure {

ZeroBarLabels* ZeroBarLabels::attach(QChart* chart, QAbstractBarSeries* series, QBarSet* set) {
  return new ZeroBarLabels(chart, series, set);
}

ZeroBarLabels::ZeroBarLabels(QChart* chart, QAbstractBarSeries* series, QBarSet* set)
    : QObject(chart), chart_(chart), series_(series), set_(set) {
  const auto later = [this] { place(); };
  connect(chart_, &QChart::plotAreaChanged, this, later);
  connect(series_, &QAbstractBarSeries::labelsVisibleChanged, this, later);
  connect(set_, &QBarSet::valuesAdded, this, later);
  connect(set_, &QBarSet::valuesRemoved, this, later);
  connect(set_, &QBarSet::valueChanged, this, later);
  connect(set_, &QBarSet::labelFontChanged, this, later);
  connect(set_, &QBarSet::labelBrushChanged, this, later);
  place();
}

void ZeroBarLabels::place() {
  const int n = static_cast<int>(set_->count());
  while (static_cast<int>(items_.size()) < n) {
    auto* item = new QGraphicsSimpleTextItem(chart_);
    item->setZValue(chart_->zValue() + 10);  // above the plot, as Qt's own labels
    items_.push_back(item);
  }
  const bool labels = series_->isLabelsVisible() && !chart_->plotArea().isEmpty();
  const QFontMetricsF metrics(set_->labelFont());
  for (int i = 0; i < static_cast<int>(items_.size()); ++i) {
    QGraphicsSimpleTextItem* item = items_[static_cast<std::size_t>(i)];
    if (!labels || i >= n || set_->at(i) != 0.0) {
      item->hide();
      continue;
    }
    // Qt's end labels use the series' precision ('g'): "0".
    const QString text = QString::number(0.0, 'g', series_->labelsPrecision());
    item->setText(text);
    item->setFont(set_->labelFont());
    item->setBrush(set_->labelBrush());
    item->setPen(Qt::NoPen);
    const QPointF at = chart_->mapToPosition(QPointF(0.0, i), series_);
    item->setPos(at.x() + metrics.averageCharWidth() * 0.5, at.y() - metrics.height() / 2);
    item->show();
  }
}

std::vector<ZeroBarLabels::Shown> ZeroBarLabels::shown() const {
  std::vector<Shown> out;
  for (int i = 0; i < static_cast<int>(items_.size()); ++i)
    if (items_[static_cast<std::size_t>(i)]->isVisible())
      out.push_back({i, items_[static_cast<std::size_t>(i)]->text()});
  return out;
}

}  // namespace ropescope::ui::figure
