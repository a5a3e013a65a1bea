// RoFormer's long-term decay bound U(delta) = (1/n) sum_j |S_j|, generalised to multi-axis plans,
// and per-axis decay curves over integer distances.
#pragma once

#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

// Full: all pairs enter the partial sums (pairs of axes that do not move have phase 0).
// Subset: only the pairs of the moving axis, n = their count (the "axis-only" form).
enum class DecayForm { Full, Subset };

// U for any displacement; exact cos/sin per pair.
double decayBound(const PairTable& pairs, const Id3& delta);

// U at distances 0..maxDistance moving along `direction` (e.g. (0,1,0) for h, (1,1,1) for text).
// Uses a rotation recurrence re-anchored every 256 steps (no trigonometry in the inner loop).
// Subset form needs direction along one axis: the pairs of that axis are used.
std::vector<double> decayCurve(const PairTable& pairs, const Id3& direction, int maxDistance,
                               DecayForm form = DecayForm::Full, int threads = 1);

// Reference: decayBound at each distance (tests, slow path).
std::vector<double> decayCurveReference(const PairTable& pairs, const Id3& direction,
                                        int maxDistance, DecayForm form = DecayForm::Full);

// The pairs used by the subset form for a direction along one axis.
PairTable subsetPairs(const PairTable& pairs, Axis axis);

}  // namespace ropescope
