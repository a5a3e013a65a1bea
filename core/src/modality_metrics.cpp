// PTD and bias spread for every ordered pair of modalities present in a layout.
#include "ropescope/modality_metrics.h"

#include <algorithm>
#include <cstdio>

#include "ropescope/metrics.h"
#include "ropescope/progress.h"

namespace ropescope {

std::vector<ModalityPairMetrics> modalityPairMetrics(const PositionIds& ids, const PairTable& pairs,
                                                     int threads, double maxPairs,
                                                     double maxSlowPairs,
                                                     const std::atomic<bool>* stop) {
  std::vector<ModalityPairMetrics> out;
  for (TokenGroup from : kModalityGroups) {
    const std::vector<std::size_t> fromTokens = groupIndices(ids, from);
    const std::size_t nFrom = fromTokens.size();
    if (nFrom == 0) continue;
    bool diagonal = true;  // the metrics' fast paths (metrics.cpp) need this
    for (std::size_t i : fromTokens)
      diagonal = diagonal && ids.ids[i][0] == ids.ids[i][1] && ids.ids[i][1] == ids.ids[i][2];
    const double limit = diagonal ? maxPairs : std::min(maxPairs, maxSlowPairs);
    for (TokenGroup to : kModalityGroups) {
      if (to == from) continue;
      const std::size_t nTo = groupIndices(ids, to).size();
      if (nTo == 0) continue;
      ModalityPairMetrics row;
      row.groups = {from, to};
      row.nFrom = nFrom;
      row.nTo = nTo;
      const double count = double(nFrom) * double(nTo);
      if (stop && stop->load()) {
        row.skipped = kCancelledReason;  // every pair still named, none with a number
      } else if (count > limit) {
        char text[128];
        std::snprintf(text, sizeof text, "%.3g token pairs, over the limit of %.3g%s", count, limit,
                      limit < maxPairs ? " for tokens off the diagonal t = h = w" : "");
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
