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

// The largest distance N of a decay curve over 0..N that is asked for: `decay --max-distance`,
// `render --max-distance` and the figures' decay charts accept kMinDecayDistance..
// kMaxDecayDistance. At least 1: a chart needs a distance axis that is not one point (U(0) is 1
// for every plan). At most one million, a million-token context: a figure holds four such curves
// (three axes and the stream, 32 MB) and draws about a thousand times more points than it has
// pixels across; decay's JSON is then 37 MB. decayCurve itself also takes 0.
inline constexpr int kMinDecayDistance = 1;
// The N of a decay curve nobody chose (`decay`, `render` and a figure without a preset's own).
inline constexpr int kDefaultDecayDistance = 256;
inline constexpr int kMaxDecayDistance = 1'000'000;
// Each component of a decay curve's direction is in [-kMaxDecayDirection, kMaxDecayDirection]:
// a displacement of up to 10^12 at the longest curve, whose phases still carry digits (a
// component of 1e308 made every phase infinite and the curve NaN).
inline constexpr double kMaxDecayDirection = 1e6;
inline constexpr const char* kDecayDirectionRange = "-1e6..1e6";  // as messages and --help say it

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
