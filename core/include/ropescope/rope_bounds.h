// Two long-context measures of the rotary pairs one id axis turns with: the discrimination bound
// (arXiv 2405.14591, "Base of RoPE Bounds Context Length": the first distance where the sum of
// cos(m theta_i) over the pairs turns negative) and the full-period pairs behind the critical
// dimension (arXiv 2310.05209, "Scaling Laws of RoPE-based Extrapolation": the pairs whose
// period fits in the trained length). docs/math.md, "Long-context bounds", has the rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

// The discrimination bound is searched over the whole distances 1..kMaxDiscriminationDistance.
inline constexpr long long kMaxDiscriminationDistance = 1LL << 22;

struct DiscriminationBound {
  // The first whole distance m >= 1 with sum_i cos(m theta_i) < 0; nullopt when there is none
  // up to the search limit (or no pair), and `undefined` says which.
  std::optional<long long> distance;
  std::string undefined;
};

// Over `thetas` (radians per position; 0 for a pair that does not rotate, which adds 1 at every
// distance). Walks the distances with one rotation per pair, set again from cos and sin every
// 1024 steps, so the sum is exact to about 1e-12.
DiscriminationBound discriminationBound(const std::vector<double>& thetas,
                                        long long limit = kMaxDiscriminationDistance);

// Along a direction d, as a decay curve moves (decay.h): pair p turns theta_p * coord_p(d) per
// step (axisCoordinate; 0 for a NoPE pair, and for a pair of an axis d does not move, which then
// adds 1 at every distance), and the bound is discriminationBound of those. `subset`: only the
// pairs of the axis d moves along (the decay's subset form), found as the axis of d's one
// non-zero component (t, h, w); Axis::T for a direction on no single axis.
DiscriminationBound discriminationBoundAlong(const PairTable& pairs, const Id3& direction,
                                             bool subset);

// The pairs (indices into `thetas`) whose period 2 pi / theta is at most `trainedLength`: they
// turned at least one whole period in training. Pairs of frequency 0 never do. The critical
// dimension of 2310.05209 is twice their count (two dims per pair): for a base-b RoPE of
// rotary dim d it is 2 * ceil((d / 2) * log_b(L / 2 pi)) (Llama 2: b 1e4, d 128, L 4096 -> 92).
std::vector<int> fullPeriodPairs(const std::vector<double>& thetas, double trainedLength);

}  // namespace ropescope
