// One call that computes everything the live views show for a Scene.
#include "ropescope/scene_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ropescope/age_schedule.h"
#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/position_design.h"

namespace ropescope {

std::string effectiveDesign(const Scene& scene) {
  if (scene.design == kAgeDesign && scene.ageLayer >= 0 &&
      !ageUsesCircle(scene.age, scene.ageLayer))
    return "mrope";
  return scene.design;
}

PositionIds effectiveIds(const Scene& scene) {
  const std::string design = effectiveDesign(scene);
  if (design == kIdsFileDesign) return idsFromFile(scene.layout, scene.fileIds, scene.idsFile);
  // An AGE layer without circle uses plain M-RoPE ids (default parameters), as the released code.
  return findDesign(design).ids(scene.layout,
                                design == scene.design ? scene.designParams : ParameterSet{});
}

long selectedTextToken(const PositionIds& ids, int selectedText) {
  // The text tokens in order, counted without building their list (a 250k-token picture).
  long last = -1;
  int seen = 0;
  for (std::size_t i = 0; i < ids.tokens.size(); ++i) {
    if (ids.tokens[i].modality != Modality::Text) continue;
    last = static_cast<long>(i);
    if (seen++ == selectedText) break;
  }
  return last;
}

long long ropeMaxPositionId(const PositionIds& ids) {
  double largest = 0.0;
  for (const Id3& id : ids.ids)
    for (double v : id)
      if (std::isfinite(v)) largest = std::max(largest, v);
  return static_cast<long long>(std::min(std::ceil(largest), double(kMaxRopePositionId)));
}

void setRopeMaxPositionIdFromScene(Scene& scene) {
  scene.frequency.rope.maxPositionId = ropeMaxPositionId(effectiveIds(scene));
}

DesignIds computeDesignIds(const Scene& scene, int threads) {
  validateScene(scene);
  DesignIds d;
  d.designUsed = effectiveDesign(scene);
  d.ids = effectiveIds(scene);
  d.ptd = perTokenDistance(d.ids, threads);
  d.selectedToken = selectedTextToken(d.ids, scene.selectedText);
  return d;
}

namespace {

// The results that read the frequency plan (and the bias spread, which reads the ids too).
void computePairResults(SceneMetrics& m, const Scene& scene, int maxDistance, int threads,
                        BiasSpreadWhen when) {
  m.pairs = resolvePairs(scene.frequency);
  m.biasPending = when == BiasSpreadWhen::Later;
  m.bias = m.biasPending
               ? BiasResult{}
               : biasSpread(m.ids, m.pairs, m.visualAxes, threads);  // the profiles' index
  m.decayDistance.resize(static_cast<std::size_t>(maxDistance) + 1);
  for (int r = 0; r <= maxDistance; ++r) m.decayDistance[r] = r;
  for (int a = 0; a < 3; ++a) {
    Id3 dir{0, 0, 0};
    dir[a] = 1.0;
    m.decayAxis[a] = decayCurve(m.pairs, dir, maxDistance, DecayForm::Full, threads);
  }
  m.decayStream.clear();
  if (scene.layout.audioCount() > 0)
    m.decayStream = decayCurve(m.pairs, {1.0, 1.0, 1.0}, maxDistance, DecayForm::Full, threads);
  m.wavelengths = wavelengths(m.pairs, 32768.0);
  // Before and after the scaling: the same curves of the table the plan gives unscaled.
  m.wavelengthsUnscaled.clear();
  for (auto& curve : m.decayAxisUnscaled) curve.clear();
  if (m.pairs.scaled()) {
    const PairTable plain = unscaledPairs(m.pairs);
    for (int a = 0; a < 3; ++a) {
      Id3 dir{0, 0, 0};
      dir[a] = 1.0;
      m.decayAxisUnscaled[a] = decayCurve(plain, dir, maxDistance, DecayForm::Full, threads);
    }
    m.wavelengthsUnscaled = wavelengths(plain, 32768.0);
  }
}

// The selected text token's profiles (ids, their visual axis index and pairs already computed).
// Each visual token's values are computed on their own: the same numbers for every thread count.
void computeSelectionResults(SceneMetrics& m, const Scene& scene, int threads) {
  m.selectedToken = selectedTextToken(m.ids, scene.selectedText);
  m.selectedDistance.clear();
  m.selectedBias.clear();
  if (m.selectedToken < 0) return;
  const auto token = static_cast<std::size_t>(m.selectedToken);
  m.selectedDistance = distancesTo(m.ids, token, m.ids.visualIndices());
  m.selectedBias = biasProfile(m.visualAxes, m.pairs, m.ids.ids[token], threads);
}

}  // namespace

SceneMetrics computeSceneMetrics(const Scene& scene, int maxDistance, int threads,
                                 BiasSpreadWhen bias) {
  DesignIds d = computeDesignIds(scene, threads);
  SceneMetrics m;
  m.designUsed = std::move(d.designUsed);
  m.ids = std::move(d.ids);
  m.ptd = std::move(d.ptd);
  m.visualAxes = tokenAxisIndex(m.ids, m.ids.visualIndices(), threads);
  computePairResults(m, scene, maxDistance, threads, bias);
  computeSelectionResults(m, scene, threads);
  return m;
}

BiasResult sceneBiasSpread(const Scene& scene, int threads) {
  validateScene(scene);
  // The same ids, pairs and index order as computeSceneMetrics: the same bits.
  return biasSpread(effectiveIds(scene), resolvePairs(scene.frequency), threads);
}

void updateSceneMetrics(SceneMetrics& m, const Scene& scene, SceneChanges changes, int maxDistance,
                        int threads) {
  if (changes.touches(kIdsParts) ||
      m.decayDistance.size() != static_cast<std::size_t>(maxDistance) + 1) {
    m = computeSceneMetrics(scene, maxDistance, threads);
    return;
  }
  validateScene(scene);
  if (changes.touches(kFrequencyParts))
    computePairResults(m, scene, maxDistance, threads, BiasSpreadWhen::Now);
  if (changes.touches(kSelectionParts)) computeSelectionResults(m, scene, threads);
}

std::vector<DesignSummary> compareDesigns(const Scene& scene, int threads,
                                          const std::atomic<bool>* stop) {
  validateScene(scene);
  const PairTable pairs = resolvePairs(scene.frequency);
  std::vector<DesignSummary> out;
  for (const PositionDesign* d : allDesigns()) {
    if (stop && stop->load()) break;
    const ParameterSet params = d->name() == scene.design ? scene.designParams : ParameterSet{};
    const PositionIds ids = d->ids(scene.layout, params);
    const PtdResult ptd = perTokenDistance(ids, threads);
    const BiasResult bias = biasSpread(ids, pairs, threads);
    out.push_back({d->name(), d->title(), ptd.ptd, bias.spread, ptd.undefinedReason,
                   bias.undefinedReason, ptd.nText, ptd.nVisual});
  }
  if (scene.design == kIdsFileDesign && !(stop && stop->load())) {  // the user's own ids too
    const PositionIds ids = idsFromFile(scene.layout, scene.fileIds, scene.idsFile);
    const PtdResult ptd = perTokenDistance(ids, threads);
    const BiasResult bias = biasSpread(ids, pairs, threads);
    out.push_back({kIdsFileDesign, idsFileDesign().title(), ptd.ptd, bias.spread,
                   ptd.undefinedReason, bias.undefinedReason, ptd.nText, ptd.nVisual});
  }
  return out;
}

std::vector<ModalityPairMetrics> sceneModalityMetrics(const Scene& scene, int threads,
                                                      const std::atomic<bool>* stop) {
  validateScene(scene);
  return modalityPairMetrics(effectiveIds(scene), resolvePairs(scene.frequency), threads,
                             kMaxInteractivePairs, kMaxInteractiveSlowPairs, stop);
}

void checkInteractiveSize(const Scene& scene) {
  const double text = double(scene.layout.textCount()), visual = double(scene.layout.visualCount());
  if (text * visual <= kMaxInteractivePairs) return;
  char pairs[32], limit[32];
  std::snprintf(pairs, sizeof pairs, "%.3g", text * visual);
  std::snprintf(limit, sizeof limit, "%.3g", kMaxInteractivePairs);
  throw InputError(
      "layout: " + std::to_string(scene.layout.textCount()) + " text x " +
          std::to_string(scene.layout.visualCount()) + " visual tokens are " + pairs +
          " pairs; the app measures up to " + limit +
          " on each edit (fewer text or visual tokens; the ropescope ptd and bias commands "
          "compute any size)",
      "layout");
}

}  // namespace ropescope
