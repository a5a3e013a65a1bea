// PTD and bias spread for every ordered pair of modalities present in a layout.
#include "ropescope/modality_metrics.h"

#include <cstdio>

#include "ropescope/metrics.h"

namespace ropescope {

std::vector<ModalityPairMetrics> modalityPairMetrics(const PositionIds& ids, const PairTable& pairs,
                                                     int threads, double maxPairs,
                                                     const std::atomic<bool>* stop) {
  std::vector<ModalityPairMetrics> out;
  for (TokenGroup from : kModalityGroups) {
    const std::size_t nFrom = groupIndices(ids, from).size();
    if (nFrom == 0) continue;
    for (TokenGroup to : kModalityGroups) {
      if (to == from) continue;
      const std::size_t nTo = groupIndices(ids, to).size();
      if (nTo == 0) continue;
      if (stop && stop->load()) return out;
      ModalityPairMetrics row;
      row.groups = {from, to};
      row.nFrom = nFrom;
      row.nTo = nTo;
      const double count = double(nFrom) * double(nTo);
      if (count > maxPairs) {
        char text[96];
        std::snprintf(text, sizeof text, "%.3g token pairs, over the limit of %.3g", count,
                      maxPairs);
        row.skipped = text;
      } else {
        row.ptd = perTokenDistance(ids, threads, row.groups).ptd;
        row.biasSpread = biasSpread(ids, pairs, threads, row.groups).spread;
      }
      out.push_back(row);
    }
  }
  return out;
}

}  // namespace ropescope
