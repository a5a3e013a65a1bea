// cos and sin of theta_k * p for positions p that mostly run in steps of one (text ids on the
// diagonal), by rotation instead of trigonometry: a step multiplies e^{i theta_k p} by
// e^{i theta_k}, and the walk restarts from std::cos/std::sin at every break in the run and every
// kStepTrigAnchor steps, so the error stays near 1e-14 (well under 1e-12) instead of growing.
#pragma once

#include <cstddef>

namespace ropescope::detail {

// Steps between exact re-anchorings.
constexpr std::size_t kStepTrigAnchor = 32;

// For each position j < count: out[j * ld + k] = cos(theta[k] * p[j]) and
// out[j * ld + m + k] = sin(theta[k] * p[j]), k < m (column-major, one column per position).
// The walk starts at j = 0: a caller that always hands over the same ranges of positions gets the
// same bits (metrics.cpp fixes its chunks by the scene, never by the thread count).
void stepTrigTable(const double* p, std::size_t count, const double* theta, std::size_t m,
                   std::size_t ld, double* out);

}  // namespace ropescope::detail
