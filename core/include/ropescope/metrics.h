// Metrics over position ids: distances, Per-Token Distance (PTD), positional bias and its spread.
// Pure functions; memory stays O(N) (no N_text x N_visual matrix).
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "ropescope/bias_profile.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"
#include "ropescope/progress.h"
#include "ropescope/token_groups.h"

namespace ropescope {

// Euclidean distance in the design's metric space.
double tokenDistance(const PositionIds& ids, std::size_t a, std::size_t b);

// Distances from one token to every visual token, in visual-token order.
std::vector<double> distancesToVisual(const PositionIds& ids, std::size_t token);
// Distances from one token to each of the tokens `to`, in that order.
std::vector<double> distancesTo(const PositionIds& ids, std::size_t token,
                                const std::vector<std::size_t>& to);

// PTD and the bias spread average over the token pairs of two groups (text x visual unless a
// GroupPair says otherwise): with no token in either group there is nothing to average and the
// value is undefined (not 0, which reads as "perfectly uniform"). The reason, one line naming the
// counts, e.g. "PTD needs at least one text and one visual token (layout has 5 text, 0 visual)";
// empty when the metric is defined.
std::string undefinedMetricReason(const std::string& metric, std::size_t nFrom, std::size_t nTo,
                                  GroupPair groups = {});
// The same in a few words, for titles: "no visual token", "no text token" or "no text or visual
// token"; empty when there are both.
std::string missingTokensText(std::size_t nFrom, std::size_t nTo, GroupPair groups = {});

struct PtdResult {
  double ptd = std::numeric_limits<double>::quiet_NaN();  // NaN when undefined
  std::string undefinedReason;  // why ptd is undefined (undefinedMetricReason); empty: defined
  bool defined() const { return undefinedReason.empty(); }
  // Per token of the `from` group (text by default), in token order:
  std::vector<double> perText;       // mean absolute deviation of its distances
  std::vector<double> meanDistance;  // D-bar
  std::size_t nText = 0;             // tokens of the `from` group
  std::size_t nVisual = 0;           // tokens of the `to` group
};

// PTD = 1/(N_text N_vis) sum_t sum_i |d(t,i) - mean_i d(t,i)|, t over the `from` group (text) and
// i over the `to` group (visual). Undefined (NaN with a reason) when a group has no token.
// threads <= 0 uses every hardware thread. Throws InputError for groups that share tokens.
// `progress` is told the fraction of text tokens done; when its cancel says stop, the call throws
// Cancelled (progress.h) without a result. With every text id on the diagonal the cost grows
// with text tokens x chunks of visual tokens rather than x visual tokens
// (docs/math.md#ptd-at-scale).
PtdResult perTokenDistance(const PositionIds& ids, int threads = 1, GroupPair groups = {},
                           const Progress& progress = {});

// Straightforward two-pass reference (used by tests, and as the path for text off the diagonal).
PtdResult perTokenDistanceReference(const PositionIds& ids, GroupPair groups = {},
                                    const Progress& progress = {});

// Phase of every pair for displacement delta (t, h, w): theta_p * delta[axis(p)].
std::vector<double> pairPhases(const PairTable& pairs, const Id3& delta);

// b(delta) = (1/n) sum_p cos(phase_p): the logit RoPE alone adds for identical unit q = k.
double positionalBias(const PairTable& pairs, const Id3& delta);

// The displacement between two tokens as the frequency plan consumes it (query minus key).
Id3 displacement(const PositionIds& ids, std::size_t query, std::size_t key);

struct BiasResult {
  double spread = std::numeric_limits<double>::quiet_NaN();  // mean over text tokens of perText
  std::string undefinedReason;  // why spread is undefined (no text or no visual token)
  bool defined() const { return undefinedReason.empty(); }
  // Per token of the `from` group (text by default):
  std::vector<double> perText;   // mean absolute deviation of b over the `to` tokens
  std::vector<double> meanBias;  // mean b
};

// `progress` as for perTokenDistance.
BiasResult biasSpread(const PositionIds& ids, const PairTable& pairs, int threads = 1,
                      GroupPair groups = {}, const Progress& progress = {});
// The same, given the `to` group's coordinate index (tokenAxisIndex of groupIndices(ids,
// groups.to), in that order, every axis with pairs indexed), as the live views keep it: the
// index is not built twice. Throws std::invalid_argument when it indexes another number of tokens.
BiasResult biasSpread(const PositionIds& ids, const PairTable& pairs, const TokenAxisIndex& toIndex,
                      int threads = 1, GroupPair groups = {}, const Progress& progress = {});
BiasResult biasSpreadReference(const PositionIds& ids, const PairTable& pairs,
                               GroupPair groups = {}, const Progress& progress = {});

// b from one token to every visual token (profile view).
std::vector<double> biasToVisual(const PositionIds& ids, const PairTable& pairs, std::size_t token);
// b from one token to each of the tokens `to`, in that order.
std::vector<double> biasTo(const PositionIds& ids, const PairTable& pairs, std::size_t token,
                           const std::vector<std::size_t>& to);

}  // namespace ropescope
