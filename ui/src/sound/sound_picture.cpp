#include "sound/sound_picture.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ropescope::ui {

namespace {
constexpr double kAxisHeight = 22.0;  // seconds under the plot
constexpr double kBarRoom = 70.0;     // colour bar and its labels at the right
constexpr double kLeftRoom = 8.0;
constexpr double kTopRoom = 6.0;

QString secondsText(double s) {
  return QString::number(s, 'g', 4) + QStringLiteral(" s");
}

// Ticks at a 1-2-5 step giving about `count` intervals.
double tickStep(double duration, int count) {
  if (!(duration > 0.0)) return 1.0;
  const double raw = duration / std::max(1, count);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) return m * decade;
  return 10.0 * decade;
}
}  // namespace

QRectF soundPlotRect(const QRectF& canvas) {
  return QRectF(canvas.left() + kLeftRoom, canvas.top() + kTopRoom,
                std::max(1.0, canvas.width() - kLeftRoom - kBarRoom),
                std::max(1.0, canvas.height() - kTopRoom - kAxisHeight));
}

double xOfSeconds(const QRectF& plot, double duration, double seconds) {
  return duration > 0.0 ? plot.left() + seconds / duration * plot.width() : plot.left();
}

double secondsOfX(const QRectF& plot, double duration, double x) {
  return plot.width() > 0.0 ? (x - plot.left()) / plot.width() * duration : 0.0;
}

QColor soundForeground(bool dark) {
  return dark ? QColor(225, 225, 230) : QColor(30, 30, 35);
}

QColor soundSelectionColor(bool dark) {
  return dark ? QColor(255, 242, 77) : QColor(217, 26, 140);
}

void paintSelectionAndFrame(QPainter& p, const QRectF& plot, const SoundPicture& pic,
                            double duration) {
  if (pic.selected >= 0 && pic.selected < static_cast<long>(pic.spans.size())) {
    const auto& s = pic.spans[static_cast<std::size_t>(pic.selected)];
    const double x0 = xOfSeconds(plot, duration, s.first);
    const double x1 = xOfSeconds(plot, duration, s.second);
    p.setPen(QPen(soundSelectionColor(pic.dark), 2.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(x0, plot.top() + 1, std::max(2.0, x1 - x0), plot.height() - 2));
  }
  p.setPen(QPen(soundForeground(pic.dark), 1.0));
  p.setBrush(Qt::NoBrush);
  p.drawRect(plot);
  paintTimeAxis(p, plot, duration, pic.dark);
}

void paintTimeAxis(QPainter& p, const QRectF& plot, double duration, bool dark) {
  p.setPen(soundForeground(dark));
  const double step = tickStep(duration, std::max(2, static_cast<int>(plot.width() / 90)));
  const QFontMetricsF fm(p.font());
  for (int k = 0; k * step <= duration + 1e-12; ++k) {
    const double x = xOfSeconds(plot, duration, k * step);
    p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
    const QString label = secondsText(k * step);
    const double w = fm.horizontalAdvance(label);
    p.drawText(QPointF(std::max(plot.left(), std::min(x - w / 2, plot.right() - w + 30)),
                       plot.bottom() + 5 + fm.ascent()),
               label);
  }
}

}  // namespace ropescope::ui
