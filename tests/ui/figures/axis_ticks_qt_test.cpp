// The charts' axes set in one change per property (figure_charts.h: fitAxis) show what Qt's own
// nice numbers showed: looseNiceTicks (core) against QValueAxis::applyNiceNumbers over ranges of
// every scale and sign, and fitAxis's axis against fitAxisTicks.
#include <gtest/gtest.h>

#include <QValueAxis>

#include <cmath>

#include "figures/figure_charts.h"
#include "ropescope/axis_ticks.h"

namespace {

// Ranges whose spans run evenly over the decades 1e-7..1e7 (every mantissa of a step), at
// offsets of either sign.
template <class Check>
void forRanges(Check check) {
  unsigned state = 12345u;
  const auto uniform = [&state] {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) / 16777216.0;
  };
  for (int i = 0; i < 3000; ++i) {
    const double span = std::pow(10.0, -7.0 + 14.0 * uniform());
    const double lo = span * (uniform() * 20.0 - 10.0);
    check(lo, lo + span);
  }
}

}  // namespace

TEST(FigureAxes, LooseNiceTicksAreQtsNiceNumbers) {
  forRanges([](double lo, double hi) {
    for (int ticks : {5, 6, 7}) {
      QValueAxis axis;
      axis.setTickCount(ticks);
      axis.setRange(lo, hi);
      axis.applyNiceNumbers();
      const ropescope::AxisTicks t = ropescope::looseNiceTicks(lo, hi, ticks);
      ASSERT_DOUBLE_EQ(axis.min(), t.min) << lo << ' ' << hi << ' ' << ticks;
      ASSERT_DOUBLE_EQ(axis.max(), t.max) << lo << ' ' << hi << ' ' << ticks;
      ASSERT_EQ(axis.tickCount(), t.ticks) << lo << ' ' << hi << ' ' << ticks;
    }
  });
}

TEST(FigureAxes, FitAxisSetsTheFittedRangeAndTicks) {
  int crowded = 0;
  forRanges([&crowded](double lo, double hi) {
    QValueAxis axis;
    // An axis fitted before (a live chart's) ends as a fresh one does: the result does not
    // depend on the tick count the last fit left.
    ropescope::ui::figure::fitAxis(&axis, 0.04, 0.94);
    ropescope::ui::figure::fitAxis(&axis, lo, hi);
    const ropescope::AxisTicks t = ropescope::fitAxisTicks(lo, hi);
    ASSERT_DOUBLE_EQ(axis.min(), t.min);
    ASSERT_DOUBLE_EQ(axis.max(), t.max);
    if (t.interval > 0) {
      ++crowded;
      EXPECT_EQ(axis.tickType(), QValueAxis::TicksDynamic);
      EXPECT_EQ(axis.tickAnchor(), 0.0);
      EXPECT_DOUBLE_EQ(axis.tickInterval(), t.interval);
    } else {
      EXPECT_EQ(axis.tickType(), QValueAxis::TicksFixed);
      EXPECT_EQ(axis.tickCount(), t.ticks);
    }
  });
  EXPECT_GT(crowded, 0);  // both kinds of axis were seen
}
