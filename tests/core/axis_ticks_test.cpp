// The charts' round numbers (axis_ticks.h): Heckbert's nice numbers and loose labelling worked
// by hand, the tick steps of the exported figures and the scale bar, and the screen's fit.
// ui_model's AxisTicksQt checks looseNiceTicks against Qt's own QValueAxis::applyNiceNumbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ropescope/axis_ticks.h"

using ropescope::AxisTicks;

TEST(AxisTicks, NiceNumberRoundsUpOrToTheNearest) {
  // Rounded up: the smallest of 1, 2, 5, 10 times 10^k at least x.
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(1.0, true), 1.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(1.01, true), 2.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(2.0, true), 2.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(2.2, true), 5.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(5.5, true), 10.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(0.031, true), 0.05);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(340.0, true), 500.0);
  // Nearest: mantissa below 1.5 -> 1, below 3 -> 2, below 7 -> 5, else 10.
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(1.49, false), 1.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(1.5, false), 2.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(2.99, false), 2.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(3.0, false), 5.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(6.99, false), 5.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(7.0, false), 10.0);
  EXPECT_DOUBLE_EQ(ropescope::niceNumber(0.0042, false), 0.005);
}

TEST(AxisTicks, LooseLabellingWidensToMultiplesOfARoundStep) {
  // [0.13, 0.87], 5 ticks: span 0.74 rounds up to 1, step 1/4 = 0.25 -> 0.2; floor(0.65) = 0,
  // ceil(4.35) = 5: 0..1 in 6 ticks.
  const AxisTicks a = ropescope::looseNiceTicks(0.13, 0.87);
  EXPECT_DOUBLE_EQ(a.min, 0.0);
  EXPECT_DOUBLE_EQ(a.max, 1.0);
  EXPECT_EQ(a.ticks, 6);
  EXPECT_EQ(a.interval, 0.0);
  // [-3.2, 17], 5 ticks: span 20.2 -> 50, step 12.5 -> 10; -10..20 in 4 ticks.
  const AxisTicks b = ropescope::looseNiceTicks(-3.2, 17.0);
  EXPECT_DOUBLE_EQ(b.min, -10.0);
  EXPECT_DOUBLE_EQ(b.max, 20.0);
  EXPECT_EQ(b.ticks, 4);
  // The count asked for matters: [0, 100] with 11 ticks steps by 10.
  const AxisTicks c = ropescope::looseNiceTicks(0.0, 100.0, 11);
  EXPECT_DOUBLE_EQ(c.max, 100.0);
  EXPECT_EQ(c.ticks, 11);
}

TEST(AxisTicks, EveryLooseRangeHoldsItsDataAndEndsOnRoundSteps) {
  // Brute force over ranges of many scales: the axis holds [lo, hi], its ends are whole steps
  // of a 1-2-5 number, and it never widens by more than a step on either side.
  for (double scale : {1e-6, 0.01, 1.0, 37.0, 1e5})
    for (int i = 0; i < 200; ++i) {
      const double lo = scale * (std::sin(i * 1.7) * 3.0);
      const double hi = lo + scale * (0.05 + std::abs(std::cos(i * 0.9)) * 4.0);
      const AxisTicks a = ropescope::looseNiceTicks(lo, hi);
      ASSERT_LE(a.min, lo) << lo << ' ' << hi;
      ASSERT_GE(a.max * (1 + 1e-12), hi) << lo << ' ' << hi;
      const double step = (a.max - a.min) / (a.ticks - 1);
      const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
      EXPECT_TRUE(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
                  std::abs(mantissa - 5) < 1e-6 || std::abs(mantissa - 10) < 1e-6)
          << step;
      EXPECT_LT(lo - a.min, step * (1 + 1e-9));
      EXPECT_LT(a.max - hi, step * (1 + 1e-9));
    }
}

TEST(AxisTicks, RoundTickStepAndScaleBar) {
  EXPECT_EQ(ropescope::roundTickStep(256), 64);  // a power of two: quarters
  EXPECT_EQ(ropescope::roundTickStep(4), 1);
  EXPECT_EQ(ropescope::roundTickStep(2), 0.5);  // under 4: span / 5 = 0.4 -> 0.5
  EXPECT_EQ(ropescope::roundTickStep(12), 5);   // 2.4 -> 5
  EXPECT_EQ(ropescope::roundTickStep(1000), 200);
  EXPECT_EQ(ropescope::roundTickStep(0), 1);
  EXPECT_EQ(ropescope::roundTickStep(-3), 1);
  EXPECT_EQ(ropescope::scaleBarStep(40), 10);  // range / 4 = 10
  EXPECT_EQ(ropescope::scaleBarStep(41), 20);
  EXPECT_EQ(ropescope::scaleBarStep(3), 1);  // 0.75 -> 1
  EXPECT_DOUBLE_EQ(ropescope::scaleBarStep(0), 1e-9);
}

TEST(AxisTicks, FitShowsFlatDataFlatAndCrowdedTicksAtRoundSteps) {
  // PTD = 0 up to rounding: +-0.5 around it, not magnified noise.
  const AxisTicks flat = ropescope::fitAxisTicks(1e-13, 2e-13);
  EXPECT_LE(flat.min, -0.5);
  EXPECT_GE(flat.max, 0.5);
  // 5 % padding then loose ticks: [0, 1] -> [-0.05, 1.05] -> -0.5..1.5, 5 ticks.
  const AxisTicks unit = ropescope::fitAxisTicks(0.0, 1.0);
  EXPECT_DOUBLE_EQ(unit.min, -0.5);
  EXPECT_DOUBLE_EQ(unit.max, 1.5);
  EXPECT_EQ(unit.ticks, 5);
  EXPECT_EQ(unit.interval, 0.0);
  // [0.04, 0.94] padded is [-0.005, 0.985]: span 0.99 -> 1, step 0.25 -> 0.2, -0.2..1 in 7
  // ticks, more than 6 -> round steps over the same range: 1.2 / 5 = 0.24 -> 0.5.
  const AxisTicks crowded = ropescope::fitAxisTicks(0.04, 0.94);
  EXPECT_DOUBLE_EQ(crowded.min, -0.2);
  EXPECT_DOUBLE_EQ(crowded.max, 1.0);
  EXPECT_EQ(crowded.ticks, 7);
  EXPECT_DOUBLE_EQ(crowded.interval, 0.5);
}

TEST(AxisTicks, TicksWithinARangeAreRoundAndFewEnough) {
  EXPECT_EQ(ropescope::ticksWithin(0, 8, 4), (std::vector<double>{0, 5}));
  EXPECT_EQ(ropescope::ticksWithin(0, 8, 5), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(ropescope::ticksWithin(-3.2, 17.5, 6), (std::vector<double>{0, 5, 10, 15}));
  EXPECT_EQ(ropescope::ticksWithin(2, 2, 5), (std::vector<double>{2}));
  EXPECT_TRUE(ropescope::ticksWithin(3, 2, 5).empty());
  for (int n = 2; n <= 8; ++n) EXPECT_LE(ropescope::ticksWithin(0, 9, n).size(), std::size_t(n));
}

// Tick labels written with tickDecimals decimals are exact and all different, over steps of
// every decade and mantissa a fitted axis gives (the profile chart wrote five bias ticks 1e-5
// apart as "0.872" each with "%.3g").
TEST(AxisTicks, TickDecimalsWriteEveryTickApart) {
  EXPECT_EQ(ropescope::tickDecimals({0.0, 1.0, 5, 0.05}), 2);
  EXPECT_EQ(ropescope::tickDecimals({0.8719, 0.8721, 5, 0.0}), 5);  // step 5e-5
  EXPECT_EQ(ropescope::tickDecimals({0.0, 1.0, 5, 0.0}), 2);        // step 0.25
  EXPECT_EQ(ropescope::tickDecimals({0.0, 100.0, 6, 0.0}), 0);      // step 20
  EXPECT_EQ(ropescope::tickDecimals({0.0, 0.0, 5, 0.0}), 0);        // no step
  unsigned state = 7u;
  for (int i = 0; i < 2000; ++i) {
    state = state * 1664525u + 1013904223u;
    const double span = std::pow(10.0, -7.0 + 14.0 * ((state >> 8) / 16777216.0));
    state = state * 1664525u + 1013904223u;
    const double lo = span * (((state >> 8) / 16777216.0) * 20.0 - 10.0);
    const ropescope::AxisTicks t = ropescope::fitAxisTicks(lo, lo + span);
    const int d = ropescope::tickDecimals(t);
    const double step = t.interval > 0 ? t.interval : (t.max - t.min) / (t.ticks - 1);
    std::string previous;
    for (double v = std::ceil(t.min / step - 1e-9) * step; v <= t.max + step * 1e-9; v += step) {
      char text[64];
      std::snprintf(text, sizeof text, "%.*f", d, v);
      ASSERT_NE(previous, text) << lo << ' ' << span << ' ' << d;
      EXPECT_NEAR(std::strtod(text, nullptr), v, step * 1e-6) << text;
      previous = text;
    }
  }
}
