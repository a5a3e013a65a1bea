// Wavelength 2*pi/theta of every pair, and which pairs complete a full turn within a context.
#pragma once

#include <optional>
#include <vector>

#include "ropescope/frequency_plan.h"

namespace ropescope {

// The context length L of the full-turn test nobody chose (`freqs --context`, the scene's
// wavelengths, the freqs figure): a pair completes a full turn when its wavelength is <= L.
inline constexpr double kDefaultContextLength = 32768.0;

struct PairWavelength {
  int index = 0;
  Axis axis = Axis::T;
  double theta = 0.0;
  std::optional<double> wavelength;  // none for a NoPE pair (theta 0)
  bool fullTurn = false;             // wavelength <= context length
  PairDims dims;                     // the two q/k dims it rotates (pair layout)
};

std::vector<PairWavelength> wavelengths(const PairTable& pairs, double contextLength);
// How many of them complete a full turn (the CLI's and the Python module's full_turn_pairs).
int fullTurnPairs(const std::vector<PairWavelength>& pairs);

}  // namespace ropescope
