// PTD and bias spread between every two modalities of a scene (text, image, video, audio): the
// omni models' question "does a text token see every audio frame alike" beside the papers'
// text -> visual one. One row per ordered pair of modalities present in the layout.
#pragma once

#include <atomic>
#include <limits>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"
#include "ropescope/token_groups.h"

namespace ropescope {

struct ModalityPairMetrics {
  GroupPair groups;
  std::size_t nFrom = 0, nTo = 0;
  double ptd = std::numeric_limits<double>::quiet_NaN();
  double biasSpread = std::numeric_limits<double>::quiet_NaN();
  // Why ptd / biasSpread are NaN (a pair above maxPairs is not computed); empty: computed.
  std::string skipped;
};

// Every ordered pair of distinct modalities (kModalityGroups order, `from` major) that both have
// tokens in `ids`. A pair with more than `maxPairs` token pairs is listed with NaN values and the
// reason in `skipped`; so is one over `maxSlowPairs` whose from-tokens are not all on the
// diagonal t = h = w (visual tokens mostly): the metrics then take every pair one by one, some
// hundred times slower than from text. `stop`, when given, is read between pairs: once true the
// pairs not done are listed with kCancelledReason (progress.h) in `skipped`.
std::vector<ModalityPairMetrics> modalityPairMetrics(const PositionIds& ids, const PairTable& pairs,
                                                     int threads = 1, double maxPairs = 1e300,
                                                     double maxSlowPairs = 1e300,
                                                     const std::atomic<bool>* stop = nullptr);

}  // namespace ropescope
