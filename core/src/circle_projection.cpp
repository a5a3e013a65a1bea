// CIP exactly as the released Circle-RoPE code orders its steps (docs/designs.md#circle), in
// double.
#include "ropescope/circle_projection.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ropescope {

namespace {

struct PlaneBasis {
  double u[3], v[3];  // in (x, y, z) = (w, h, t) order
};

// u = normalize(-a_y, a_x, 0), v = normalize(a x u) with a = (1,1,1)/sqrt(3).
PlaneBasis textPlaneBasis() {
  const double s = 1.0 / std::sqrt(3.0);
  const double a[3] = {s, s, s};
  double u[3] = {-a[1], a[0], 0.0};
  const double un = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (double& c : u) c /= un;
  double v[3] = {a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]};
  const double vn = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (double& c : v) c /= vn;
  return {{u[0], u[1], u[2]}, {v[0], v[1], v[2]}};
}

}  // namespace

double circleRadius(int rows, int cols, const CircleOptions& o) {
  if (!o.autoRadius) return o.radius;
  // |max over all coordinate values| (not the max absolute value), z = 0 included.
  const double maxX = o.centre ? (cols - 1) / 2.0 : cols - 1.0;
  const double maxY = o.centre ? (rows - 1) / 2.0 : rows - 1.0;
  return o.autoK * std::abs(std::max({maxX, maxY, 0.0}));
}

std::vector<CircleCell> circleProjection(int rows, int cols, const CircleOptions& o) {
  const int n = rows * cols;
  std::vector<CircleCell> cells(static_cast<std::size_t>(n));
  std::vector<double> x(n), y(n), phi(n);
  const double cx = o.centre ? (cols - 1) / 2.0 : 0.0;
  const double cy = o.centre ? (rows - 1) / 2.0 : 0.0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int k = r * cols + c;
      x[k] = c - cx;
      y[k] = r - cy;
      phi[k] = std::atan2(y[k], x[k]);
    }
  const auto [mn, mx] = std::minmax_element(phi.begin(), phi.end());
  const double lo = *mn, range = *mx - *mn;
  const double R = circleRadius(rows, cols, o);
  const double twoPi = 2.0 * std::numbers::pi;
  const PlaneBasis B = textPlaneBasis();
  double minCoord = 0.0;
  for (int k = 0; k < n; ++k) {
    CircleCell& cell = cells[k];
    cell.sa = range > 0 ? (phi[k] - lo) / range * twoPi : phi[k];
    cell.ga = twoPi * k / n;
    cell.theta = o.alpha * cell.sa + (1.0 - o.alpha) * cell.ga;
    const double px = o.noCircle ? x[k] : R * std::cos(cell.theta);
    const double py = o.noCircle ? y[k] : R * std::sin(cell.theta);
    double P[3];
    for (int i = 0; i < 3; ++i) P[i] = px * B.u[i] + py * B.v[i];
    if (o.dff != 0.0)
      for (int i = 0; i < 3; ++i)
        P[i] = (1.0 - o.dff) * P[i] + o.dff * (x[k] * B.u[i] + y[k] * B.v[i]);
    // (X, Y, Z) are the code's (w, h, t): ids are (t, h, w) = (Z, Y, X).
    cell.offset = {P[2], P[1], P[0]};
    minCoord = k == 0 ? std::min({P[0], P[1], P[2]}) : std::min({minCoord, P[0], P[1], P[2]});
  }
  if (o.moveToPositive != CircleOptions::Positive::Off && n > 0) {
    const double shift =
        std::abs(minCoord) +
        (o.moveToPositive == CircleOptions::Positive::Offset ? o.positiveOffset : 0.0);
    for (CircleCell& cell : cells)
      for (double& v : cell.offset) v += shift;
  }
  return cells;
}

}  // namespace ropescope
