// The row names of an exported bar chart with many rows (every design: 22). Qt Charts hides a
// category name whose box (the font's height plus its text item's margins, 8 px) would overlap
// its neighbour's, so the names had to shrink to 7 layout px (3.5 pt in a 3.5 in column) before
// Qt showed them all, half the size of the value labels beside them. These names are drawn by
// the figure itself instead, as large as a row's height allows (at most the axis's own size),
// right-aligned left of the plot in the room the chart's left margin leaves them.
#pragma once

#include <QFont>
#include <QObject>

#include <vector>

class QAbstractBarSeries;
class QBarCategoryAxis;
class QChart;
class QGraphicsSimpleTextItem;

namespace ropescope::ui::figure {

class RowNames : public QObject {
 public:
  // Takes over `axis`'s names (it hides its own labels and widens the chart's left margin);
  // owned by `chart`. `series` is the horizontal bar series attached to `axis`.
  static RowNames* attach(QChart* chart, QAbstractBarSeries* series, QBarCategoryAxis* axis);

 private:
  RowNames(QChart* chart, QAbstractBarSeries* series, QBarCategoryAxis* axis);
  void place();

  QChart* chart_;
  QAbstractBarSeries* series_;
  QBarCategoryAxis* axis_;
  QFont font_;
  std::vector<QGraphicsSimpleTextItem*> items_;
};

}  // namespace ropescope::ui::figure
