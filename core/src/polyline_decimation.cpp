#include "ropescope/polyline_decimation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "ropescope/errors.h"

namespace ropescope {

namespace {

// xAt(i): the x of point i; the checks are the caller's.
template <class X>
std::vector<std::size_t> decimate(X xAt, std::span<const double> y, double x0, double x1,
                                  int columns) {
  const std::size_t n = y.size();
  std::vector<std::size_t> keep;
  if (n <= 4 * static_cast<std::size_t>(columns)) {
    keep.resize(n);
    for (std::size_t i = 0; i < n; ++i) keep[i] = i;
    return keep;
  }
  const double perUnit = columns / (x1 - x0);
  const auto columnOf = [&](double v) {
    const double c = std::floor((v - x0) * perUnit);
    return c < 0 ? 0L : c >= columns ? static_cast<long>(columns) - 1 : static_cast<long>(c);
  };
  keep.reserve(4 * static_cast<std::size_t>(columns));
  std::size_t i = 0;
  while (i < n) {
    const long column = columnOf(xAt(i));
    const std::size_t first = i;
    // The column's end, the first point of a later column: x does not decrease, so neither does
    // the column, and the end is found by doubling steps, then halving them.
    std::size_t inside = i, step = 1;  // inside: a point known to be in the column
    while (inside + step < n && columnOf(xAt(inside + step)) == column) {
      inside += step;
      step *= 2;
    }
    std::size_t beyond = std::min(inside + step, n);  // n or a point of a later column
    while (beyond - inside > 1) {
      const std::size_t mid = inside + (beyond - inside) / 2;
      (columnOf(xAt(mid)) == column ? inside : beyond) = mid;
    }
    std::size_t lo = n, hi = n;  // n: no number yet
    double loY = 0.0, hiY = 0.0;
    for (i = first; i < beyond; ++i) {
      const double v = y[i];
      if (std::isnan(v)) continue;
      if (lo == n || v < loY) lo = i, loY = v;
      if (hi == n || v > hiY) hi = i, hiY = v;
    }
    std::array<std::size_t, 4> picked = {first, lo, hi, i - 1};
    std::sort(picked.begin(), picked.end());
    for (std::size_t p : picked)
      if (p < n && (keep.empty() || keep.back() != p)) keep.push_back(p);
  }
  return keep;
}

void checkColumns(int columns) {
  if (columns < 1)
    throw InputError("decimation: columns is " + std::to_string(columns) +
                     "; it must be at least 1");
}

}  // namespace

std::vector<std::size_t> decimateForColumns(std::span<const double> y, int columns) {
  checkColumns(columns);
  const double last = y.size() > 1 ? static_cast<double>(y.size() - 1) : 1.0;
  return decimate([](std::size_t i) { return static_cast<double>(i); }, y, 0.0, last, columns);
}

std::vector<std::size_t> decimateForColumns(std::span<const double> x, std::span<const double> y,
                                            double x0, double x1, int columns) {
  checkColumns(columns);
  if (!(x1 > x0))
    throw InputError("decimation: the x range must grow (x0 < x1), got " + std::to_string(x0) +
                     " .. " + std::to_string(x1));
  if (x.size() != y.size())
    throw InputError("decimation: " + std::to_string(x.size()) + " x values but " +
                     std::to_string(y.size()) + " y values; they must be as many");
  return decimate([&x](std::size_t i) { return x[i]; }, y, x0, x1, columns);
}

}  // namespace ropescope
