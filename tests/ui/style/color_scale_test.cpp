// The one colour scale of every heat map, against positions worked out by hand: the ends are
// viridis' published end colours, log positions are ratios of decimal exponents, a flat range is
// the map's middle colour, and a value that is not there is never a map colour.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "style/color_scale.h"

using namespace ropescope::ui;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// viridis' ends as matplotlib publishes them, and its middle: halfway between the published
// points at 4/9 (38, 130, 142) and 5/9 (31, 158, 137), rounded half away from zero.
const QColor kLow(68, 1, 84), kHigh(253, 231, 37), kMiddle(35, 144, 140);

}  // namespace

TEST(ColorScale, LinearEndsAndPositions) {
  const ColorScale s = ColorScale::linear(-2.0, 6.0);
  EXPECT_FALSE(s.isLog());
  EXPECT_FALSE(s.isFlat());
  EXPECT_EQ(s.color(-2.0), kLow);
  EXPECT_EQ(s.color(6.0), kHigh);
  EXPECT_EQ(s.color(2.0), kMiddle);
  EXPECT_DOUBLE_EQ(s.position(0.0), 0.25);  // 2 of the 8 units above the low end
  EXPECT_DOUBLE_EQ(s.position(5.0), 0.875);
  // Outside the range: the nearer end, not past it.
  EXPECT_EQ(s.position(-10.0), 0.0);
  EXPECT_EQ(s.position(100.0), 1.0);
  EXPECT_DOUBLE_EQ(s.valueAt(0.25), 0.0);
}

TEST(ColorScale, LogPositionsAreExponentRatios) {
  const ColorScale s = ColorScale::logarithmic(1e-4, 1e-1);
  ASSERT_TRUE(s.isLog());
  // 1e-2 is two of the three decades above 1e-4.
  EXPECT_NEAR(s.position(1e-2), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.position(1e-3), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.position(std::sqrt(1e-4 * 1e-1)), 0.5, 1e-12);
  EXPECT_EQ(s.color(1e-4), kLow);
  EXPECT_EQ(s.color(1e-1), kHigh);
  // A probability of zero (a masked softmax entry) is the low end, on a log scale as on a linear.
  EXPECT_EQ(s.position(0.0), 0.0);
  EXPECT_EQ(s.color(0.0), kLow);
  // The same value sits elsewhere on a linear scale of the same range.
  EXPECT_NEAR(ColorScale::linear(1e-4, 1e-1).position(1e-2), (1e-2 - 1e-4) / (1e-1 - 1e-4), 1e-12);
  EXPECT_NEAR(s.valueAt(2.0 / 3.0), 1e-2, 1e-15);
  // No positive low end: a log scale cannot be had, so it is linear.
  EXPECT_FALSE(ColorScale::logarithmic(0.0, 1.0).isLog());
  EXPECT_FALSE(ColorScale::logarithmic(0.5, 0.5).isLog());
}

TEST(ColorScale, TicksAreEvenlySpacedValues) {
  const auto lin = ColorScale::linear(0.0, 8.0).ticks(5);
  ASSERT_EQ(lin.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_DOUBLE_EQ(lin[k].value, 2.0 * k);
    EXPECT_DOUBLE_EQ(lin[k].position, k / 4.0);
  }
  const auto log = ColorScale::logarithmic(1.0, 1e4).ticks(5);
  ASSERT_EQ(log.size(), 5u);
  for (int k = 0; k < 5; ++k)
    EXPECT_NEAR(log[k].value, std::pow(10.0, k), 1e-9 * std::pow(10.0, k));
}

TEST(ColorScale, FlatRangeIsTheMiddleColour) {
  // Equal up to rounding (Circle-RoPE's distances): one colour for all, not amplified noise.
  const ColorScale s = ColorScale::linear(3.0, 3.0 + 1e-12);
  EXPECT_TRUE(s.isFlat());
  EXPECT_EQ(s.color(3.0), kMiddle);
  EXPECT_EQ(s.color(3.0 + 1e-12), kMiddle);
  const auto ticks = s.ticks(5);
  ASSERT_EQ(ticks.size(), 1u);
  EXPECT_EQ(ticks[0].position, 0.5);
  EXPECT_EQ(ticks[0].value, 3.0 + 1e-12);  // labelled by its largest value
  // A real difference is not flat, however small the numbers.
  EXPECT_FALSE(ColorScale::linear(1e-6, 2e-6).isFlat());
  EXPECT_TRUE(ColorScale::linear(7.0, 7.0).isFlat());
}

TEST(ColorScale, NoValueIsNeverAMapColour) {
  const ColorScale s = ColorScale::linear(0.0, 1.0);
  const QColor none = ColorScale::noValueColor();
  for (double v : {kNaN, kInf, -kInf}) {
    EXPECT_TRUE(std::isnan(s.position(v))) << v;
    EXPECT_EQ(s.color(v), none) << v;
  }
  // Not the low end (the bug of viridis(NaN)), nor any colour of the map.
  for (int k = 0; k <= 100; ++k) EXPECT_NE(s.color(k / 100.0), none) << k;
  EXPECT_NE(none, kLow);
  EXPECT_EQ(ColorScale::logarithmic(1.0, 10.0).color(kNaN), none);
  EXPECT_EQ(ColorScale::linear(2.0, 2.0).color(kNaN), none);  // flat: still no value
}

TEST(ColorScale, FittingTheValuesSeen) {
  ValueRange r;
  for (double v : {0.0, 0.1, 1e-3, kNaN, -kInf, 0.05}) r.add(v);
  ASSERT_TRUE(r.any);
  const ColorScale log = ColorScale::fitting(r, true);
  EXPECT_TRUE(log.isLog());
  EXPECT_EQ(log.lo(), 1e-3);  // the smallest positive value, not the zero
  EXPECT_EQ(log.hi(), 0.1);
  const ColorScale lin = ColorScale::fitting(r, false);
  EXPECT_FALSE(lin.isLog());
  EXPECT_EQ(lin.lo(), 0.0);  // -inf and NaN are not part of the range
  EXPECT_EQ(lin.hi(), 0.1);
  // One positive level: no log scale to be had.
  ValueRange one;
  for (double v : {0.0, 0.5, 0.5}) one.add(v);
  EXPECT_FALSE(ColorScale::fitting(one, true).isLog());
  // Nothing finite: 0..1.
  ValueRange none;
  none.add(kNaN);
  EXPECT_FALSE(none.any);
  EXPECT_EQ(ColorScale::fitting(none, true).lo(), 0.0);
  EXPECT_EQ(ColorScale::fitting(none, true).hi(), 1.0);
}

// A user's-eye report: Circle-RoPE at R = 10^6 labelled the picture's colour bar "8.66e+05" at
// every tick. Labels keep four significant digits where they differ, and take more where two
// different values would read the same.
TEST(ColorScale, TickLabelsTellDifferentValuesApart) {
  EXPECT_EQ(colorTickLabels(ColorScale::linear(0, 1).ticks(5), 4),
            (QStringList{"0", "0.25", "0.5", "0.75", "1"}));
  const auto ticks = ColorScale::linear(866025.40, 866025.45).ticks(5);
  const QStringList labels = colorTickLabels(ticks, 4);
  ASSERT_EQ(labels.size(), 5);
  for (qsizetype i = 1; i < labels.size(); ++i) {
    EXPECT_NE(labels[i], labels[i - 1]) << labels.join(' ').toStdString();
    EXPECT_NEAR(labels[i].toDouble(), ticks[std::size_t(i)].value, 0.01);
  }
  // One value (a flat scale's) keeps its four digits.
  EXPECT_EQ(colorTickLabels({{866025.4, 0.5}}, 4), QStringList{"8.66e+05"});
}
