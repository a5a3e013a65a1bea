// Qt Charts draws no value label on a bar of length 0, so a design whose PTD is exactly 0 (the
// cone, unordered ids) read as a missing bar, the one number a Circle-RoPE figure is about. These
// labels write "0" where Qt would put the end label of such a bar, in the set's label font and
// colour, following the series' label visibility; the live charts and the exported figures both
// attach them.
#pragma once

#include <QObject>

#include <vector>

class QAbstractBarSeries;
class QBarSet;
class QChart;
class QGraphicsSimpleTextItem;

namespace ropescope::ui::figure {

class ZeroBarLabels : public QObject {
  Q_OBJECT

 public:
  // Owned by `chart`; `series` holds `set`, a horizontal bar series attached to its axes.
  static ZeroBarLabels* attach(QChart* chart, QAbstractBarSeries* series, QBarSet* set);
  // The labels shown now, each with its category index (tests).
  struct Shown {
    int index;
    QString text;
  };
  std::vector<Shown> shown() const;

 private:
  ZeroBarLabels(QChart* chart, QAbstractBarSeries* series, QBarSet* set);
  void place();

  QChart* chart_;
  QAbstractBarSeries* series_;
  QBarSet* set_;
  std::vector<QGraphicsSimpleTextItem*> items_;  // one per category, hidden unless its bar is 0
};

}  // namespace ropescope::ui::figure
