// Which points of a long polyline a screen needs: per pixel column the first, lowest, highest and
// last point, so that the drawn line is the same to the pixel with a few points per column.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ropescope {

// The indices (ascending, each once) of the points of the polyline (x[i], y[i]) to draw over
// `columns` equal columns spanning [x0, x1]: in every column its first and last point and the
// points of its lowest and highest y (the first of equals). Points left of x0 count to the first
// column and right of x1 to the last; a NaN y is never lowest or highest. A polyline of at most
// 4 × columns points is returned whole. x must not decrease; the result keeps every point that
// changes what a pixel column shows. Throws InputError for columns < 1, x1 <= x0 or x and y of
// different lengths.
std::vector<std::size_t> decimateForColumns(std::span<const double> x, std::span<const double> y,
                                            double x0, double x1, int columns);
// The same for y[i] drawn at x = i over [0, n - 1] (a profile over token indices), without an x
// array.
std::vector<std::size_t> decimateForColumns(std::span<const double> y, int columns);

}  // namespace ropescope
