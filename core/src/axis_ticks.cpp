#include "ropescope/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace ropescope {

double niceNumber(double x, bool ceiling) {
  const double power = std::pow(10.0, std::floor(std::log10(x)));
  const double mantissa = x / power;  // in [1, 10)
  double round = 10.0;
  if (ceiling) {
    for (double m : {1.0, 2.0, 5.0})
      if (mantissa <= m) {
        round = m;
        break;
      }
  } else {
    if (mantissa < 1.5)
      round = 1.0;
    else if (mantissa < 3.0)
      round = 2.0;
    else if (mantissa < 7.0)
      round = 5.0;
  }
  return round * power;
}

AxisTicks looseNiceTicks(double lo, double hi, int ticks) {
  const double span = niceNumber(hi - lo, true);
  const double step = niceNumber(span / (ticks - 1), false);
  const double first = std::floor(lo / step), last = std::ceil(hi / step);
  AxisTicks a;
  a.ticks = static_cast<int>(last - first) + 1;
  a.min = first * step;
  a.max = last * step;
  return a;
}

double roundTickStep(double span) {
  if (span <= 0) return 1;
  const double p2 = std::exp2(std::round(std::log2(span)));
  if (std::abs(p2 - span) < 1e-9 && span >= 4) return span / 4;
  const double raw = span / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

AxisTicks fitAxisTicks(double lo, double hi) {
  const double scale = std::max({1.0, std::abs(lo), std::abs(hi)});
  if (!(hi - lo > 1e-9 * scale)) {
    const double half = std::max(0.5, 0.1 * std::abs(lo));
    lo -= half;
    hi += half;
  }
  const double pad = (hi - lo) * 0.05;
  AxisTicks a = looseNiceTicks(lo - pad, hi + pad);
  if (a.ticks > 6) a.interval = roundTickStep(a.max - a.min);
  return a;
}

int tickDecimals(const AxisTicks& t) {
  const double step = t.interval > 0 ? t.interval : (t.max - t.min) / std::max(1, t.ticks - 1);
  if (!(step > 0) || !std::isfinite(step)) return 0;
  constexpr int kMaxDecimals = 15;
  for (int d = 0; d < kMaxDecimals; ++d) {
    const double scaled = step * std::pow(10.0, d);
    if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled) return d;
  }
  return kMaxDecimals;
}

std::vector<double> ticksWithin(double lo, double hi, int maxTicks) {
  std::vector<double> out;
  if (!(hi >= lo) || maxTicks < 1) return out;
  if (maxTicks == 1 || hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
    out.push_back(lo);
    return out;
  }
  const double raw = (hi - lo) / (maxTicks - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9)) {
      step = m * mag;
      break;
    }
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + step * 1e-9; v += step) out.push_back(v);
  if (out.empty()) out.push_back(lo);
  return out;
}

double scaleBarStep(double range) {
  const double raw = std::max(range / 4.0, 1e-9);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10.0 * p;
}

}  // namespace ropescope
