#include "figure_style.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope::ui::figure {

double effectiveScale(const FigureOptions& o) {
  if (o.scale > 0) return o.scale;
  return std::max(kMinScale, o.size.width() / kColumnWidth);
}

QSizeF logicalSize(const FigureOptions& o) {
  const double s = effectiveScale(o);
  return QSizeF(o.size.width() / s, o.size.height() / s);
}

void validate(const FigureOptions& o) {
  auto side = [](int v) { return v >= kMinSide && v <= kMaxSide; };
  if (!side(o.size.width()) || !side(o.size.height()))
    throw InputError("--size must be WxH with each side in " + std::to_string(kMinSide) + ".." +
                         std::to_string(kMaxSide) + " pixels (got " +
                         std::to_string(o.size.width()) + "x" + std::to_string(o.size.height()) +
                         ")",
                     "size");
  if (o.scale != 0.0 && !(o.scale >= kMinScale && o.scale <= kMaxScale))
    throw InputError("--scale must be in 0.25..16 (got " + formatDouble(o.scale) + ")", "scale");
  const QSizeF l = logicalSize(o);
  if (l.width() < 120 || l.height() < 90)
    throw InputError("--size / --scale leave a " + std::to_string(std::lround(l.width())) + "x" +
                         std::to_string(std::lround(l.height())) +
                         " canvas; it must be at least 120x90 logical pixels (lower --scale)",
                     "scale");
  if (o.maxDistance < 1 || o.maxDistance > 1000000)
    throw InputError("--max-distance must be in 1..1000000 for a figure (got " +
                         std::to_string(o.maxDistance) + ")",
                     "max-distance");
}

QFont font(Text role) {
  QFont f(QStringLiteral("DejaVu Sans"));
  switch (role) {
    case Text::Title:
      f.setPixelSize(16);
      f.setBold(true);
      break;
    case Text::AxisTitle:
      f.setPixelSize(14);
      break;
    case Text::Label:
      f.setPixelSize(13);
      break;
    case Text::Legend:
      f.setPixelSize(13);
      break;
  }
  return f;
}

QColor foreground() {
  return QColor(25, 25, 25);
}
QColor gridColor() {
  return QColor(215, 215, 215);
}
QColor neutralBar() {
  return QColor(150, 165, 190);
}
QColor currentColor() {
  return QColor(215, 40, 140);
}
QColor distanceColor() {
  return QColor(40, 90, 200);
}
QColor biasColor() {
  return QColor(210, 100, 20);
}

void styleChart(QChart* chart, const FigureOptions& o) {
  // Remember the series colours: setTheme resets them.
  chart->setTheme(QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setBackgroundRoundness(0);
  chart->setDropShadowEnabled(false);
  chart->setBackgroundBrush(Qt::white);
  chart->setBackgroundPen(Qt::NoPen);
  chart->setPlotAreaBackgroundVisible(false);
  chart->setMargins(QMargins(4, 4, 8, 4));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setTitleFont(font(Text::Title));
  chart->setTitleBrush(foreground());
  if (!o.title) chart->setTitle(QString());
  chart->legend()->setFont(font(Text::Legend));
  chart->legend()->setLabelColor(foreground());
  chart->legend()->setVisible(o.legend && chart->legend()->isVisible());
  for (QAbstractAxis* axis : chart->axes()) {
    axis->setLabelsFont(font(Text::Label));
    axis->setLabelsColor(foreground());
    axis->setTitleFont(font(Text::AxisTitle));
    axis->setTitleBrush(foreground());
    QPen line(foreground());
    line.setWidthF(1.0);
    axis->setLinePen(line);
    QPen grid(gridColor());
    grid.setWidthF(kGridWidth);
    axis->setGridLinePen(grid);
    axis->setMinorGridLineVisible(false);
  }
}

}  // namespace ropescope::ui::figure
