// The coordinates a design's distance uses (docs/math.md#distance): t (line), (h, w) (plane),
// (t, h, w), or (t, h, w, h + w - t) (VRoPE's four maps).
#pragma once

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope::detail {

inline int spaceDims(MetricSpace s) {
  return s == MetricSpace::Line ? 1 : s == MetricSpace::Plane ? 2 : s == MetricSpace::Space ? 3 : 4;
}

inline int firstAxis(MetricSpace s) {
  return s == MetricSpace::Plane ? 1 : 0;
}

// Coordinate d of a token in its space.
inline double spaceCoordinate(const Id3& id, MetricSpace s, int d) {
  return d == 3 ? axisCoordinate(Axis::Mix, id) : id[firstAxis(s) + d];
}

}  // namespace ropescope::detail
