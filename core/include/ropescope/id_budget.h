// The id budget of a sequence: how fast its position ids grow against its tokens, per axis the
// largest relative distance against the model's trained length, and the scaling that covers it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"
#include "ropescope/rope_bounds.h"
#include "ropescope/rope_scaling.h"

namespace ropescope {

struct Scene;

// Points of the budget curve (--points, Python points=): 2..kMaxBudgetPoints, default 512.
inline constexpr std::size_t kMinBudgetPoints = 2;
inline constexpr std::size_t kMaxBudgetPoints = 1u << 20;
inline constexpr std::size_t kDefaultBudgetPoints = 512;
// --trained-length N: 1..kMaxRopePositionId + 1 (a length, the ids 0..N-1).
inline constexpr long long kMaxTrainedLength = kMaxRopePositionId + 1;

// The context length the model was trained at (L_train) and where it was read. Unknown
// (tokens 0): every ratio against it is undefined, and `reason` says why.
struct TrainedLength {
  long long tokens = 0;
  std::string source;  // "--trained-length", "rope yarn original_max_position_embeddings", ...
  std::string reason;  // why it is unknown; empty when known
  bool known() const { return tokens > 0; }
};

// The trained length, first found of: `given` (> 0: --trained-length), the rope scaling's
// original_max_position_embeddings, its max_position_embeddings (dynamic: the length it
// switches past), the model config's max_position_embeddings (`configMax` > 0). Otherwise
// unknown, with the reason.
TrainedLength trainedLengthOf(const RopeScaling& rope, long long configMax, long long given);

// One id axis (t, h, w; h+w-t where the plan turns pairs with it).
struct AxisBudget {
  Axis axis = Axis::T;
  double minId = 0.0, maxId = 0.0;
  double distance = 0.0;  // the largest relative distance on the axis: maxId - minId
  int pairs = 0;          // rotary pairs the plan gives this axis
  // distance / trained length; nullopt when the trained length is unknown.
  std::optional<double> ratio;
  // The pairs whose angle at `distance` leaves the range seen in training (docs/math.md, "The
  // id budget"): theta_p * distance > theta_train_p * (L_train - 1) while theta_train_p *
  // (L_train - 1) < 2 pi (the pair never turned a whole period in training). theta_p is the
  // frequency in use (scaled), theta_train_p the one trained with (before the scaling).
  std::vector<int> outsidePairs;
  // outsidePairs / pairs; nullopt when the trained length is unknown or the axis has no pairs
  // (shareUndefined says which).
  std::optional<double> share;
  std::string shareUndefined;
  // The axis's discrimination bound (rope_bounds.h, arXiv 2405.14591) over the frequencies in
  // use (scaled), against `distance`: withinBound says distance < bound (also true when the sum
  // stays >= 0 up to the search limit and the distance is below it); nullopt without a bound
  // to compare (no pair, or a distance past the search limit).
  DiscriminationBound discrimination;
  std::optional<bool> withinBound;
  // The full-period pairs (rope_bounds.h, arXiv 2310.05209): the axis's pairs whose trained
  // period 2 pi / theta_train fits in the trained length, and the critical dimension, twice
  // their count; nullopt (criticalUndefined says why) without a trained length.
  std::vector<int> fullPeriodPairs;
  std::optional<int> criticalDimension;
  std::string criticalUndefined;
};

struct IdBudget {
  std::string design;
  std::size_t tokens = 0;
  Id3 maxId{0.0, 0.0, 0.0}, minId{0.0, 0.0, 0.0};  // per axis t, h, w
  double largestId = 0.0;  // over t, h, w: the id transformers' forward takes (seq_len - 1)
  double ropeDelta = 0.0;  // PositionIds::ropeDelta: largest id + 1 - tokens
  double growth = 0.0;     // (largestId + 1) / tokens: ids spent per token
  TrainedLength trained;
  std::vector<AxisBudget> axes;  // t, h, w, then h+w-t where the plan uses it

  // The curve: at each sampled token index, the tokens so far (index + 1) and the running
  // largest id per axis and over all three, exact at each point.
  std::vector<std::size_t> curveTokens;
  std::vector<Id3> curveMax;
  std::vector<double> curveLargest;

  // Dynamic NTK (and longrope): the sequence length past which the frequencies switch
  // (seq_len = largest id + 1 > switchLength), the scene's own rope type's where it has one,
  // else the trained length (what dynamic scaling with max_position_embeddings = L_train does);
  // 0 when neither is known. switchToken: the first token index whose running largest id + 1
  // passes it (nullopt: the layout stays within).
  long long switchLength = 0;
  std::string switchFrom;  // "rope dynamic", "trained length"
  std::optional<std::size_t> switchToken;

  // The YaRN factor that would cover the layout, (largestId + 1) / L_train, and the factor the
  // token count alone suggests, tokens / L_train; nullopt without a trained length.
  std::optional<double> yarnFactorFromIds, yarnFactorFromTokens;
  std::string ropeType;              // the scene's scaling, "" without one
  std::optional<double> ropeFactor;  // its factor parameter, where it has one
  std::optional<bool> ropeCovers;    // ropeFactor * L_train >= largestId + 1
};

// The budget of `ids` under `pairs` (their theta and, when scaled, thetaUnscaled) and `rope`
// (its type and factor) against `trained`, with at most `points` curve points (kMinBudgetPoints..
// kMaxBudgetPoints; the first and the last token always among them). One pass over the tokens.
// Throws InputError for no tokens or `points` out of range.
IdBudget idBudget(const PositionIds& ids, const PairTable& pairs, const RopeScaling& rope,
                  const TrainedLength& trained, std::size_t points = kDefaultBudgetPoints);

// The same for a scene: its effective ids and resolved pairs; `configMax` and `given` as in
// trainedLengthOf.
IdBudget sceneIdBudget(const Scene& scene, long long configMax, long long given,
                       std::size_t points = kDefaultBudgetPoints);

}  // namespace ropescope
