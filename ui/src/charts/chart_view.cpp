#include "charts/chart_view.h"

#include <QMouseEvent>

namespace ropescope::ui {

void ChartView::mousePressEvent(QMouseEvent* event) {
  if (!itemAt(event->position().toPoint())) {
    QGraphicsView::mousePressEvent(event);  // nothing there to click, no rubber band to start
    return;
  }
  QChartView::mousePressEvent(event);
}

}  // namespace ropescope::ui
