// Round numbers for the axes and scale bars of the charts and figures: which range an axis
// shows and where its ticks go. Pure arithmetic, so that a chart sets its axis once per update
// (each change of a Qt Charts axis lays its series out again) and the rules are tested here.
#pragma once

#include <vector>

namespace ropescope {

// An axis over [min, max] with `ticks` evenly spaced ticks (both ends included), or, where
// `interval` > 0, ticks every `interval` anchored at 0 instead.
struct AxisTicks {
  double min = 0.0;
  double max = 1.0;
  int ticks = 5;
  double interval = 0.0;
};

// A round number near x > 0: 1, 2, 5 or 10 times a power of ten. `ceiling`: the smallest such
// number >= x; otherwise the nearest one (x's mantissa below 1.5 -> 1, below 3 -> 2, below 7 -> 5,
// else 10). Heckbert, "Nice numbers for graph labels", Graphics Gems (1990).
double niceNumber(double x, bool ceiling);

// Heckbert's loose labelling of [lo, hi] (lo < hi) aiming at `ticks` ticks: a round step
// (niceNumber of the rounded-up span over ticks - 1), the range widened outwards to multiples
// of it, and the tick count that results. The range and count Qt's QValueAxis::applyNiceNumbers
// gives an axis with that tick count (tested against it in ui_charts_test).
AxisTicks looseNiceTicks(double lo, double hi, int ticks = 5);

// Ticks at round steps over a span > 0: quarters of a power of two of at least 4 (distances
// 0..256 -> 64), else 1, 2 or 5 times a power of ten giving 4..8 intervals. 1 for span <= 0.
double roundTickStep(double span);

// An axis for data in [lo, hi] on a screen chart: flat data (a span within 1e-9 of the values'
// scale) shown flat around its value, not magnified rounding noise; 5 % padding each side; then
// looseNiceTicks. More than 6 ticks crowd a laptop's chart: round steps (roundTickStep) over the
// same range instead.
AxisTicks fitAxisTicks(double lo, double hi);

// How many decimals print the ticks of `t` exactly, and so apart from each other: the fewest
// (at most 15) that write the tick step as a whole number of their last place (step 0.05 -> 2,
// 1e-5 -> 5, 0.25 -> 2, 20 -> 0). "%.3g" wrote five ticks 1e-5 apart as "0.872" each.
int tickDecimals(const AxisTicks& t);

// Round tick values within [lo, hi], at most `maxTicks` of them: the smallest step of 1, 2 or 5
// times a power of ten that needs no more, from the first multiple of it at or above lo (the 3-D
// view's axes). Empty for hi < lo or maxTicks < 1; just lo for one tick or an empty range.
std::vector<double> ticksWithin(double lo, double hi, int maxTicks);

// A scale bar's length for a drawing `range` units across: 1, 2 or 5 times a power of ten near
// range / 4 (at least range / 4, and at least 1e-9).
double scaleBarStep(double range);

}  // namespace ropescope
