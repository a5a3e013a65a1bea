#include "figures/figure_style.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>

#include <cmath>

#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/phasor.h"
#include "ropescope/report.h"

namespace ropescope::ui::figure {

double effectiveScale(const FigureOptions& o) {
  if (o.scale > 0) return o.scale;
  return o.size.width() / kColumnWidth;
}

QSizeF logicalSize(const FigureOptions& o) {
  const double s = effectiveScale(o);
  return QSizeF(o.size.width() / s, o.size.height() / s);
}

namespace {

std::string sizeText(long w, long h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

}  // namespace

void validate(const FigureOptions& o) {
  auto side = [](int v) { return v >= kMinSide && v <= kMaxSide; };
  const int w = o.size.width(), h = o.size.height();
  if (!side(w) || !side(h))
    throw InputError("--size must be WxH with each side in " + std::to_string(kMinSide) + ".." +
                         std::to_string(kMaxSide) + " pixels (got " + sizeText(w, h) + ")",
                     "size");
  if (o.scale != 0.0 && !(o.scale >= kMinScale && o.scale <= kMaxScale))
    throw InputError("--scale must be in " + formatDouble(kMinScale) + ".." +
                         formatDouble(kMaxScale) + " (got " + formatDouble(o.scale) + ")",
                     "scale");
  const double s = effectiveScale(o);
  if (o.scale == 0.0) {
    // Auto scale: the width sets the scale, the height the canvas's height.
    const long minW = std::lround(std::ceil(kMinScale * kColumnWidth));
    const long minH = std::lround(std::ceil(kMinCanvasHeight * std::max(s, kMinScale)));
    if (w < minW)
      throw InputError(
          "--size " + sizeText(w, h) + " is too small for the figure's text: it needs " +
              "at least " + std::to_string(minW) + " pixels wide (e.g. --size " +
              sizeText(minW, std::max<long>(minH, std::lround(std::ceil(1.0 * h * minW / w)))) +
              ")",
          "size");
    if (h < minH)
      throw InputError("--size " + sizeText(w, h) + " is too flat for the figure: at " +
                           std::to_string(w) + " pixels wide it needs at least " +
                           std::to_string(minH) + " high (--size " + sizeText(w, minH) + ")",
                       "size");
  } else {
    const QSizeF l = logicalSize(o);
    if (l.width() < kMinCanvasWidth || l.height() < kMinCanvasHeight) {
      const long minW = std::max<long>(w, std::lround(std::ceil(kMinCanvasWidth * s)));
      const long minH = std::max<long>(h, std::lround(std::ceil(kMinCanvasHeight * s)));
      // The largest scale this size allows, rounded down to hundredths.
      const double most =
          std::floor(100.0 * std::min(w / kMinCanvasWidth, h / kMinCanvasHeight)) / 100.0;
      throw InputError("--size " + sizeText(w, h) + " at --scale " + formatDouble(s) +
                           " leaves a " +
                           sizeText(std::lround(l.width()), std::lround(l.height())) +
                           " layout, less than the " +
                           sizeText(std::lround(kMinCanvasWidth), std::lround(kMinCanvasHeight)) +
                           " the figure needs: at this size --scale must be at most " +
                           formatDouble(most) + " (or --size " + sizeText(minW, minH) + ")",
                       "scale");
    }
  }
  if (o.maxDistance < kMinDecayDistance || o.maxDistance > kMaxDecayDistance)
    throw InputError("--max-distance must be in " + std::to_string(kMinDecayDistance) + ".." +
                         std::to_string(kMaxDecayDistance) + " for a figure (got " +
                         std::to_string(o.maxDistance) + ")",
                     "max-distance");
  if (o.phasorDistance < 0 || o.phasorDistance > kPhasorMaxDistance)
    throw InputError("--distance must be a whole number in 0.." +
                         std::to_string(kPhasorMaxDistance) + " (got " +
                         std::to_string(o.phasorDistance) + ")",
                     "distance");
  try {
    directionDisplacement(o.phasorAlong, 0.0);  // core's rule for the names
  } catch (const InputError&) {
    throw InputError("--along must be t, h, w or thw (got \"" + o.phasorAlong + "\")", "along");
  }
}

QFont font(Text role) {
  QFont f(QStringLiteral("DejaVu Sans"));
  // Figure text never shares a font engine with the interface. Qt caches engines by pixel size,
  // whatever the resolution they were made at: a 12-px label measured on a figure of 144 (or
  // 300) pixels per inch left an engine of 6 pt for 12 px, and the menus, whose 9-pt font is
  // 12 px on the screen, were drawn at 6 pt until restart. A style strategy of their own (which
  // changes nothing in how a scalable font is drawn) keys the figures' engines apart.
  f.setStyleStrategy(kFigureFontStrategy);
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

void drawFittedText(QPainter& p, const QRectF& rect, Text role, const QString& text) {
  QFont f = font(role);
  const int full = f.pixelSize();
  for (int px = full; px >= full * 7 / 10; --px) {
    f.setPixelSize(px);
    if (QFontMetricsF(f).horizontalAdvance(text) <= rect.width()) break;
  }
  p.setFont(f);
  p.drawText(rect, Qt::AlignCenter,
             QFontMetricsF(f).elidedText(text, Qt::ElideRight, rect.width()));
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
