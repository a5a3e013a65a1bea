// Circle-RoPE's Circular Image Projection (CIP) for one H x W grid: centring, radius, the
// spatial-origin and grid-index angles, the ring, Dual-Frame Fusion and the plane ⟂ (1,1,1).
#pragma once

#include <vector>

#include "ropescope/position_ids.h"

namespace ropescope {

struct CircleOptions {
  double alpha = 0.5;       // angle mix: alpha * SA + (1 - alpha) * GA
  bool autoRadius = false;  // R = autoK * |max coordinate| of the (centred) grid
  double radius = 10.0;     // fixed R (> 0)
  double autoK = 1.0;
  bool centre = true;  // move_to_origin
  double dff = 0.0;    // Dual-Frame Fusion beta: (1 - beta) * ring + beta * grid
  enum class Positive { Off, Auto, Offset } moveToPositive = Positive::Off;
  double positiveOffset = 0.0;
  bool noCircle = false;  // skip the ring: project the grid itself
};

struct CircleCell {
  double sa = 0.0;     // spatial-origin angle
  double ga = 0.0;     // grid-index angle
  double theta = 0.0;  // mixed angle
  Id3 offset{};        // (t, h, w) relative to the ring centre (s, s, s)
};

// Cells in row-major order k = row * W + col.
std::vector<CircleCell> circleProjection(int rows, int cols, const CircleOptions& options);

// The radius actually used (auto modes resolved).
double circleRadius(int rows, int cols, const CircleOptions& options);

}  // namespace ropescope
