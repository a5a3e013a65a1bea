// Wavelengths 2*pi/theta per pair and the "completes a turn within L" flag.
#include "ropescope/wavelengths.h"

#include <numbers>

namespace ropescope {

std::vector<PairWavelength> wavelengths(const PairTable& pairs, double contextLength) {
  std::vector<PairWavelength> out;
  for (int p = 0; p < pairs.size(); ++p) {
    PairWavelength w;
    w.index = p;
    w.axis = pairs.axis[p];
    w.theta = pairs.theta[p];
    w.dims = pairDims(pairs.layout, p, pairs.size());
    if (w.theta > 0.0) {
      w.wavelength = 2.0 * std::numbers::pi / w.theta;
      w.fullTurn = *w.wavelength <= contextLength;
    }
    out.push_back(w);
  }
  return out;
}

int fullTurnPairs(const std::vector<PairWavelength>& pairs) {
  int turns = 0;
  for (const PairWavelength& p : pairs) turns += p.fullTurn ? 1 : 0;
  return turns;
}

}  // namespace ropescope
