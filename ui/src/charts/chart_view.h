// The one chart view the app makes. Qt Charts 6.4's QChartView::mousePressEvent asks the item
// under the cursor for its accepted buttons without checking that there is one: a press where
// no chart item lies (outside a chart smaller than its view, e.g. while the view grows under
// the cursor) crashed the app (found by the GUI abuse test). Such a press goes to the graphics
// view alone.
#pragma once

#include <QChartView>

namespace ropescope::ui {

class ChartView : public QChartView {
 public:
  explicit ChartView(QChart* chart, QWidget* parent = nullptr) : QChartView(chart, parent) {}

 protected:
  void mousePressEvent(QMouseEvent* event) override;
};

}  // namespace ropescope::ui
