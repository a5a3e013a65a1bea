// Everything the live views show for one Scene, computed in one call: ids, PTD, bias spread,
// decay curves per axis and the selected text token's profiles. The GUI's only entry to the math.
#pragma once

#include <array>
#include <atomic>
#include <limits>
#include <string>
#include <vector>

#include "ropescope/bias_profile.h"
#include "ropescope/decay.h"
#include "ropescope/metrics.h"
#include "ropescope/modality_metrics.h"
#include "ropescope/progress.h"
#include "ropescope/scene.h"
#include "ropescope/scene_changes.h"
#include "ropescope/wavelengths.h"

namespace ropescope {

struct SceneMetrics {
  std::string designUsed;  // the scene's design, or "mrope" on an AGE layer that uses M-RoPE ids
  PositionIds ids;
  PairTable pairs;
  PtdResult ptd;
  BiasResult bias;
  // True when computeSceneMetrics left the bias spread for later (BiasSpreadWhen::Later): `bias`
  // is then no result at all (neither a value nor undefined) until sceneBiasSpread's is put in.
  bool biasPending = false;
  std::vector<double> decayDistance;             // 0..maxDistance
  std::array<std::vector<double>, 3> decayAxis;  // U moving along t, h, w (full form)
  // U moving along t = h = w, the way text and audio tokens move apart (full form); computed
  // only when the layout has audio tokens (the omni models' time axis), else empty.
  std::vector<double> decayStream;
  std::vector<PairWavelength> wavelengths;
  // With a rope scaling (pairs.scaled()), decayAxis and wavelengths as the plan gives them
  // before the scaling (unscaledPairs); empty without one.
  std::array<std::vector<double>, 3> decayAxisUnscaled;
  std::vector<PairWavelength> wavelengthsUnscaled;
  // The visual tokens' distinct coordinates (bias_profile.h): built with the ids, so that a
  // new selection only computes the profiles.
  TokenAxisIndex visualAxes;
  long selectedToken = -1;               // token index of scene.selectedText, -1 if no text
  std::vector<double> selectedDistance;  // to every visual token
  std::vector<double> selectedBias;      // to every visual token (biasProfile)
};

// The part of SceneMetrics a design's 3-D view needs: ids, PTD and the selected text token,
// without the bias spread, decay curves and profiles (compare mode draws four designs; with the
// bias spread a 250k-token scene took seconds per design on every edit).
struct DesignIds {
  std::string designUsed;
  PositionIds ids;
  PtdResult ptd;
  long selectedToken = -1;  // token index of scene.selectedText, -1 if no text
};

// Throws InputError if the scene is invalid; Cancelled when `progress` said stop (its PTD).
DesignIds computeDesignIds(const Scene& scene, int threads = 1, const Progress& progress = {});

// Whether computeSceneMetrics computes the bias spread, by far its largest part on a scene with
// many text x visual pairs: the desktop app draws the ids of such a scene at once and computes
// the spread in the background (SceneModel).
enum class BiasSpreadWhen { Now, Later };

// Throws InputError if the scene is invalid. With BiasSpreadWhen::Later every result but the
// bias spread is computed, and biasPending is set. `progress` is handed to the PTD and the bias
// spread (the long parts): Cancelled when it said stop.
SceneMetrics computeSceneMetrics(const Scene& scene, int maxDistance = kDefaultDecayDistance,
                                 int threads = 1, BiasSpreadWhen bias = BiasSpreadWhen::Now,
                                 const Progress& progress = {});

// The bias spread computeSceneMetrics(scene, ..., BiasSpreadWhen::Now) gives, bit for bit, on
// its own (from the scene: the job that computes it needs no copy of the ids). Throws InputError
// if the scene is invalid; Cancelled when `progress` said stop.
BiasResult sceneBiasSpread(const Scene& scene, int threads = 1, const Progress& progress = {});

// `m`, computed for a scene that differs from `scene` only in `changes` (sceneChanges), made
// equal to computeSceneMetrics(scene, maxDistance, threads) by recomputing only the results that
// read a changed part (scene_changes.h): a selection change recomputes the selected token's two
// profiles (milliseconds on t1000,i500x500) instead of the bias spread (seconds). Throws
// InputError if the scene is invalid; `m` is then unchanged.
void updateSceneMetrics(SceneMetrics& m, const Scene& scene, SceneChanges changes,
                        int maxDistance = kDefaultDecayDistance, int threads = 1);

// The token index of text token `selectedText` (index among the text tokens, clamped to the
// last one) in `ids`, -1 when there is no text token.
long selectedTextToken(const PositionIds& ids, int selectedText);

// The text x visual token pairs of the scene's layout: what its bias spread costs (the desktop
// app's estimate of how long a design's spread takes).
double textVisualPairs(const Scene& scene);

// The most text x visual token pairs each pair of modalities of the desktop app's modality table
// is measured for (the CLI's --from/--to compute any size).
inline constexpr double kMaxInteractivePairs = 268435456.0;  // 2^28

// What a design's bias spread of the scene's layout costs at most: its text x visual pairs (its
// time: about 3 s for the 2e9 pairs of t1000,v1000x32x32,t1000 on two cores), and the bytes of
// its per-coordinate tables when every visual token has coordinates of its own (cos and sin per
// pair: a 4M-token video under qwen3-omni's ids took 5.9 GB).
struct BiasCost {
  double pairs = 0.0;
  double tableBytes = 0.0;
};
BiasCost biasSpreadCost(const Scene& scene);
// The most a design's bias spread may cost in compareDesigns; over it the spread reads
// notComputedBias. The desktop app's every-design charts: 2^34 pairs (the ~22 designs of the
// 1M-token video take minutes in the background; the document of 500 pictures of 32 x 32
// between 1000 text tokens, 2.5e11 pairs, would take hours) and 1 GiB of tables (peak memory
// stays under 2 GiB at a million tokens).
struct BiasLimit {
  double pairs;
  double tableBytes;
};
inline constexpr BiasLimit kNoBiasLimit{std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::infinity()};
inline constexpr BiasLimit kInteractiveBiasLimit{17179869184.0, 1073741824.0};  // 2^34, 1 GiB
// Why a bias spread of that cost was left out: "not computed (2.5e+11 pairs, tables up to
// 3.91 GiB; `ropescope bias` computes any size)".
std::string notComputedBias(const BiasCost& cost);

// modalityPairMetrics over the scene's effective ids and frequency plan, each pair limited to
// kMaxInteractivePairs token pairs, kMaxInteractiveSlowPairs from tokens off the diagonal (the
// desktop app's table; the CLI's --from/--to compute any size).
inline constexpr double kMaxInteractiveSlowPairs = 1048576.0;  // 2^20: about a second
std::vector<ModalityPairMetrics> sceneModalityMetrics(const Scene& scene, int threads = 1,
                                                      const std::atomic<bool>* stop = nullptr);

// The largest position id of `ids` over every axis, as transformers' rotary forward takes it
// (seq_len = max id + 1) for RopeScaling::maxPositionId: rounded up to a whole id (a
// fractional id m is past a length L exactly when ceil(m) + 1 > L), clamped to
// 0..kMaxRopePositionId; 0 without tokens.
long long ropeMaxPositionId(const PositionIds& ids);
// Sets scene.frequency.rope.maxPositionId from the scene's own ids (effectiveIds): the
// sequence the dynamic and longrope types then switch for is this scene's. The ids do not
// read the frequency plan, so a scaling still incomplete takes it too. Throws InputError if
// the scene's ids cannot be computed (its layout or design refused).
void setRopeMaxPositionIdFromScene(Scene& scene);

// The design whose ids a scene shows: the scene's design, or mrope on an AGE layer without circle.
std::string effectiveDesign(const Scene& scene);
// The ids of the effective design over the scene's layout, with its parameters (defaults for an
// AGE layer's M-RoPE), or the file's ids for design ids-file.
PositionIds effectiveIds(const Scene& scene);

struct DesignSummary {
  std::string design;
  std::string title;
  double ptd = 0.0;                         // NaN when undefined (ptdUndefined says why)
  double biasSpread = 0.0;                  // NaN when undefined (biasUndefined says why)
  std::string ptdUndefined, biasUndefined;  // empty: defined
  std::size_t nText = 0, nVisual = 0;       // the layout's tokens (the same for every design)
};

// PTD and bias spread of the scene's layout under every design (each with its default
// parameters, except the scene's own design, which keeps the scene's parameters). The bias
// spread of a layout whose biasSpreadCost is over `limit` is not computed (notComputedBias).
// `progress` reports the fraction of designs done and is polled within each design's PTD and
// spread: once it says stop, the designs not done read kCancelledReason (the desktop app stops a
// comparison an edit has made stale, or the user cancelled).
std::vector<DesignSummary> compareDesigns(const Scene& scene, int threads = 1,
                                          const Progress& progress = {},
                                          BiasLimit limit = kNoBiasLimit);

}  // namespace ropescope
