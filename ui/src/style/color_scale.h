// One colour scale for every heat map: where a value lies on viridis (linear, logarithmic, or the
// middle colour for a flat range), the colour of "no value", and the one vertical colour bar.
#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QStringList>

#include <vector>

class QPaintDevice;
class QPainter;

namespace ropescope::ui {

// The finite values seen (NaN and ±inf skipped): smallest, largest and smallest positive.
struct ValueRange {
  double lo = 0.0, hi = 0.0, smallestPositive = 0.0;
  bool any = false, anyPositive = false;
  void add(double v);
};

struct ColorTick {
  double value = 0.0;     // the value labelled
  double position = 0.0;  // where it sits on the colour bar, 0 (bottom) .. 1 (top)
};

class ColorScale {
 public:
  // 0..1, linear.
  ColorScale() = default;
  static ColorScale linear(double lo, double hi);
  // Positions by log(value / lo) / log(hi / lo); values <= 0 take the low end. Needs
  // 0 < lo < hi, else it is linear.
  static ColorScale logarithmic(double lo, double hi);
  // The scale of the values seen: logarithmic from the smallest positive value when `log` is
  // asked and there are two positive levels, else linear over the finite range (0..1 if none).
  static ColorScale fitting(const ValueRange& range, bool log);

  double lo() const { return lo_; }
  double hi() const { return hi_; }
  bool isLog() const { return log_; }
  // Every value equal up to rounding (relative 1e-9): one colour, the middle of the map, not
  // amplified noise.
  bool isFlat() const;

  // Position on the map, 0..1 (clamped), or NaN for a value that is not a number or infinite.
  double position(double value) const;
  // The value at a position: position(valueAt(t)) == t.
  double valueAt(double t) const;
  // viridis at the value's position; noValueColor() where there is no position.
  QColor color(double value) const;
  // A value that is not there (masked, no token at a cell, NaN): mid grey, never a map colour.
  static QColor noValueColor();
  // `count` ticks evenly along the bar (count >= 2), or the one value of a flat scale mid-bar.
  std::vector<ColorTick> ticks(int count) const;

 private:
  ColorScale(double lo, double hi, bool log) : lo_(lo), hi_(hi), log_(log) {}
  double lo_ = 0.0, hi_ = 1.0;
  bool log_ = false;
};

struct ColorBarStyle {
  // Tick marks at the labels, each label centred on its tick; without them the labels (the two
  // ends) stay within the bar's height, the top one under its top and the bottom one on its
  // bottom.
  bool tickMarks = true;
  int digits = 4;            // significant digits of a label
  double gap = 6.0;          // from the bar's right edge to the labels
  double labelWidth = 60.0;  // room for a label (and the flat scale's note under it)
};

// The ticks' labels: `digits` significant digits, more where two different values would read
// the same (866025.40..866025.45 was labelled "8.66e+05" five times), at most 12.
QStringList colorTickLabels(const std::vector<ColorTick>& ticks, int digits);
// `font`, smaller where the widest label is wider than `width` ("1.732e+06" beside a narrow bar
// was cut to "1.732e-"), down to a least share of its size (color_scale.cpp).
// Measured as drawn on `device` (a figure's image has its own resolution), else on the screen.
QFont colorTickFont(const QFont& font, const QStringList& labels, double width,
                    const QPaintDevice* device = nullptr);

// The vertical viridis bar in `bar` (low at the bottom) framed and labelled in the painter's pen
// and font, with `ticks`; a flat scale gets "all equal" under its one label.
void paintColorBar(QPainter& p, const QRectF& bar, const ColorScale& scale,
                   const std::vector<ColorTick>& ticks, const ColorBarStyle& style = {});

}  // namespace ropescope::ui
