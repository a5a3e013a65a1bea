// decimateForColumns against brute force: per column the kept points have the full series'
// lowest and highest value and its first and last point; short series come back whole.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/polyline_decimation.h"

namespace {

using ropescope::decimateForColumns;

struct Column {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  std::size_t first = 0, last = 0;
  bool seen = false;
};

// Brute force: each point's column by the same rule the function documents.
std::map<long, Column> columnsOf(const std::vector<double>& x, const std::vector<double>& y,
                                 const std::vector<std::size_t>& which, double x0, double x1,
                                 int columns) {
  std::map<long, Column> out;
  for (std::size_t i : which) {
    long c = static_cast<long>(std::floor((x[i] - x0) * columns / (x1 - x0)));
    c = std::clamp(c, 0L, static_cast<long>(columns) - 1);
    Column& col = out[c];
    if (!col.seen) col.first = i;
    col.seen = true;
    col.last = i;
    if (!std::isnan(y[i])) {
      col.lo = std::min(col.lo, y[i]);
      col.hi = std::max(col.hi, y[i]);
    }
  }
  return out;
}

std::vector<std::size_t> all(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// A profile-like series: a slow wave with random spikes, so that a column's extremes are
// rarely its first or last point.
std::vector<double> noisy(std::size_t n, std::mt19937& rng) {
  std::normal_distribution<double> noise(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i)
    y[i] = 10 * std::sin(static_cast<double>(i) * 1e-3) + noise(rng) + (u(rng) < 1e-3 ? 50 : 0);
  return y;
}

void expectSameColumns(const std::vector<double>& x, const std::vector<double>& y, double x0,
                       double x1, int columns) {
  const std::vector<std::size_t> kept = decimateForColumns(x, y, x0, x1, columns);
  ASSERT_FALSE(kept.empty());
  for (std::size_t k = 1; k < kept.size(); ++k) ASSERT_LT(kept[k - 1], kept[k]) << "at " << k;
  EXPECT_LE(kept.size(), 4u * static_cast<std::size_t>(columns));
  const auto full = columnsOf(x, y, all(x.size()), x0, x1, columns);
  const auto drawn = columnsOf(x, y, kept, x0, x1, columns);
  ASSERT_EQ(full.size(), drawn.size());
  for (const auto& [c, col] : full) {
    const Column& d = drawn.at(c);
    EXPECT_EQ(d.lo, col.lo) << "column " << c;
    EXPECT_EQ(d.hi, col.hi) << "column " << c;
    EXPECT_EQ(d.first, col.first) << "column " << c;
    EXPECT_EQ(d.last, col.last) << "column " << c;
  }
}

TEST(PolylineDecimation, KeepsEveryColumnsExtremesFirstAndLastOfAProfile) {
  std::mt19937 rng(7);
  const std::size_t n = 250000;
  const std::vector<double> y = noisy(n, rng);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i);
  for (int columns : {1, 7, 640, 1333, 3840}) {
    SCOPED_TRACE(columns);
    expectSameColumns(x, y, 0, static_cast<double>(n - 1), columns);
  }
  // A few thousand points for a screen-wide chart, not 250 000.
  EXPECT_LE(decimateForColumns(x, y, 0, static_cast<double>(n - 1), 1333).size(), 4u * 1333);
  // Without an x array (x = index over [0, n - 1]): the same points.
  EXPECT_EQ(decimateForColumns(y, 1333),
            decimateForColumns(x, y, 0, static_cast<double>(n - 1), 1333));
}

TEST(PolylineDecimation, UnevenXAndPointsOutsideTheRange) {
  std::mt19937 rng(11);
  std::exponential_distribution<double> gap(1.0);
  const std::size_t n = 20000;
  std::vector<double> x(n);
  double at = -50;
  for (std::size_t i = 0; i < n; ++i) x[i] = (at += gap(rng) * (i % 100 == 0 ? 30 : 1));
  const std::vector<double> y = noisy(n, rng);
  // The range cuts points off on both sides: they count to the first and last column.
  expectSameColumns(x, y, 0.0, x[n - 100], 300);
}

TEST(PolylineDecimation, NaNIsNeverAnExtremeButFirstAndLastStay) {
  const std::size_t n = 1000;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<double>(i);
    y[i] = i % 3 == 0 ? std::nan("") : std::cos(static_cast<double>(i));
  }
  expectSameColumns(x, y, 0, static_cast<double>(n - 1), 20);
  // A column of NaN only keeps its first and last point.
  std::vector<double> none(n, std::nan(""));
  const auto kept = decimateForColumns(x, none, 0, static_cast<double>(n - 1), 10);
  EXPECT_EQ(kept.size(), 20u);
}

TEST(PolylineDecimation, ShortSeriesComeBackWhole) {
  std::vector<double> x, y;
  for (int i = 0; i < 400; ++i) {
    x.push_back(i);
    y.push_back(i % 7);
  }
  std::vector<std::size_t> whole(x.size());
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = i;
  EXPECT_EQ(decimateForColumns(x, y, 0, 399, 100), whole);  // 4 × 100 points: whole
  EXPECT_LT(decimateForColumns(x, y, 0, 399, 99).size(), whole.size());
  EXPECT_TRUE(decimateForColumns({}, {}, 0, 1, 5).empty());
}

TEST(PolylineDecimation, RefusesBadInputInOneLine) {
  const std::vector<double> x = {0, 1, 2}, y = {0, 1};
  EXPECT_THROW(decimateForColumns(x, x, 0, 1, 0), ropescope::InputError);
  EXPECT_THROW(decimateForColumns(x, x, 1, 1, 4), ropescope::InputError);
  try {
    decimateForColumns(x, y, 0, 2, 4);
    FAIL() << "x and y of different lengths accepted";
  } catch (const ropescope::InputError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("as many"), std::string::npos);
  }
}

}  // namespace
