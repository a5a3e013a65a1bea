// The viridis colour map (perceptually uniform, readable in grey and by colour-blind viewers)
// for the heat overlays: ten published control points, linearly interpolated.
#pragma once

#include <QColor>

#include <algorithm>
#include <array>
#include <cmath>

namespace ropescope::ui {

// viridis sampled at k/9, k = 0..9 (matplotlib's map, as published in viridisLite's viridis(10)).
inline constexpr std::array<std::array<int, 3>, 10> kViridisPoints = {{{68, 1, 84},
                                                                       {72, 40, 120},
                                                                       {62, 74, 137},
                                                                       {49, 104, 142},
                                                                       {38, 130, 142},
                                                                       {31, 158, 137},
                                                                       {53, 183, 121},
                                                                       {109, 205, 89},
                                                                       {180, 222, 44},
                                                                       {253, 231, 37}}};

// t in [0, 1] (clamped; NaN gives the low end): dark purple at 0, yellow at 1.
inline QColor viridis(double t) {
  if (!(t > 0.0)) t = 0.0;
  t = std::min(t, 1.0);
  const double x = t * (kViridisPoints.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(x), kViridisPoints.size() - 2);
  const double f = x - static_cast<double>(i);
  int rgb[3];
  for (int c = 0; c < 3; ++c) {
    rgb[c] = static_cast<int>(
        std::lround(kViridisPoints[i][c] * (1.0 - f) + kViridisPoints[i + 1][c] * f));
  }
  return QColor(rgb[0], rgb[1], rgb[2]);
}

}  // namespace ropescope::ui
