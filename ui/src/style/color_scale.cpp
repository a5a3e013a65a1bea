#include "style/color_scale.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

#include "style/viridis.h"

namespace ropescope::ui {

namespace {

constexpr double kFlatRelative = 1e-9;
constexpr int kGradientStops = 16;
constexpr double kTickLength = 4.0;
constexpr double kLabelHeight = 18.0;
// Tick labels: at most this many significant digits, and never smaller than this share of the
// painter's font.
constexpr int kMostLabelDigits = 12;
constexpr double kSmallestLabelShare = 0.6;

}  // namespace

void ValueRange::add(double v) {
  if (!std::isfinite(v)) return;
  lo = any ? std::min(lo, v) : v;
  hi = any ? std::max(hi, v) : v;
  any = true;
  if (v > 0) {
    smallestPositive = anyPositive ? std::min(smallestPositive, v) : v;
    anyPositive = true;
  }
}

ColorScale ColorScale::linear(double lo, double hi) {
  return ColorScale(lo, hi, false);
}

ColorScale ColorScale::logarithmic(double lo, double hi) {
  return ColorScale(lo, hi, lo > 0 && hi > lo);
}

ColorScale ColorScale::fitting(const ValueRange& range, bool log) {
  if (log && range.anyPositive && range.hi > range.smallestPositive)
    return logarithmic(range.smallestPositive, range.hi);
  return range.any ? linear(range.lo, range.hi) : ColorScale();
}

bool ColorScale::isFlat() const {
  return !(hi_ - lo_ > kFlatRelative * std::max(1.0, std::abs(hi_)));
}

double ColorScale::position(double value) const {
  if (!std::isfinite(value)) return std::numeric_limits<double>::quiet_NaN();
  if (isFlat()) return 0.5;
  double t = 0.0;
  if (log_)
    t = value > 0 ? std::log(value / lo_) / std::log(hi_ / lo_) : 0.0;
  else
    t = (value - lo_) / (hi_ - lo_);
  return std::clamp(t, 0.0, 1.0);
}

double ColorScale::valueAt(double t) const {
  if (isFlat()) return hi_;
  return log_ ? lo_ * std::pow(hi_ / lo_, t) : lo_ + t * (hi_ - lo_);
}

QColor ColorScale::color(double value) const {
  const double t = position(value);
  return std::isnan(t) ? noValueColor() : viridis(t);
}

QColor ColorScale::noValueColor() {
  return QColor(128, 128, 128);
}

std::vector<ColorTick> ColorScale::ticks(int count) const {
  if (isFlat()) return {{hi_, 0.5}};
  std::vector<ColorTick> out;
  count = std::max(2, count);
  for (int k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) / (count - 1);
    out.push_back({valueAt(t), t});
  }
  return out;
}

QStringList colorTickLabels(const std::vector<ColorTick>& ticks, int digits) {
  QStringList labels;
  for (int d = digits;; ++d) {
    labels.clear();
    bool clash = false;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      labels << QString::number(ticks[i].value, 'g', d);
      if (i > 0 && labels[qsizetype(i)] == labels[qsizetype(i) - 1] &&
          ticks[i].value != ticks[i - 1].value)
        clash = true;
    }
    if (!clash || d >= kMostLabelDigits) return labels;
  }
}

QFont colorTickFont(const QFont& font, const QStringList& labels, double width,
                    const QPaintDevice* device) {
  const auto widest = [&](const QFont& f) {
    const QFontMetricsF metrics = device ? QFontMetricsF(f, device) : QFontMetricsF(f);
    double w = 0;
    for (const QString& l : labels) w = std::max(w, metrics.horizontalAdvance(l));
    return w;
  };
  // A step at a time, measured at each size: a small font's hinting keeps it wider than its
  // share of the large one (a label scaled by that share was still cut on screen).
  const bool pixels = font.pixelSize() > 0;
  const double full = pixels ? font.pixelSize() : font.pointSizeF();
  const double step = pixels ? 1.0 : 0.25;
  QFont f = font;
  for (double size = full; widest(f) > width && size - step >= full * kSmallestLabelShare;) {
    size -= step;
    if (pixels)
      f.setPixelSize(static_cast<int>(size));
    else
      f.setPointSizeF(size);
  }
  return f;
}

void paintColorBar(QPainter& p, const QRectF& bar, const ColorScale& scale,
                   const std::vector<ColorTick>& ticks, const ColorBarStyle& style) {
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int k = 0; k <= kGradientStops; ++k)
    g.setColorAt(static_cast<double>(k) / kGradientStops,
                 viridis(static_cast<double>(k) / kGradientStops));
  p.fillRect(bar, g);
  p.drawRect(bar);
  const QStringList labels = colorTickLabels(ticks, style.digits);
  const QFont before = p.font();
  p.setFont(colorTickFont(before, labels, style.labelWidth, p.device()));
  const double ascent = QFontMetricsF(p.font()).ascent();
  const double x = bar.right() + style.gap;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const ColorTick& t = ticks[i];
    const double y = bar.bottom() - std::clamp(t.position, 0.0, 1.0) * bar.height();
    const QString& label = labels[qsizetype(i)];
    if (style.tickMarks) {
      p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTickLength, y));
      p.drawText(QRectF(x, y - kLabelHeight / 2, style.labelWidth, kLabelHeight),
                 Qt::AlignLeft | Qt::AlignVCenter, label);
    } else {
      const double baseline = std::clamp(y + ascent / 2, bar.top() + ascent, bar.bottom());
      p.drawText(QPointF(x, baseline), label);
    }
  }
  if (scale.isFlat() && ticks.size() == 1) {
    const double y = bar.bottom() - ticks.front().position * bar.height();
    p.drawText(QRectF(x, y + kLabelHeight / 2, style.labelWidth, 2 * kLabelHeight),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               QCoreApplication::translate("ColorScale", "all equal"));
  }
  p.setFont(before);
}

}  // namespace ropescope::ui
