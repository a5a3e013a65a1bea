// One call that computes everything the live views show for a Scene.
#include "ropescope/scene_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ropescope/age_schedule.h"
#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/memory_limit.h"
#include "ropescope/position_design.h"

namespace ropescope {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

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

DesignIds computeDesignIds(const Scene& scene, int threads, const Progress& progress) {
  validateScene(scene);
  DesignIds d;
  d.designUsed = effectiveDesign(scene);
  d.ids = effectiveIds(scene);
  d.ptd = perTokenDistance(d.ids, threads, {}, progress);
  d.selectedToken = selectedTextToken(d.ids, scene.selectedText);
  return d;
}

namespace {

// The results that read the frequency plan (and the bias spread, which reads the ids too).
void computePairResults(SceneMetrics& m, const Scene& scene, int maxDistance, int threads,
                        BiasSpreadWhen when, const Progress& progress = {}) {
  m.pairs = resolvePairs(scene.frequency);
  m.biasPending = when == BiasSpreadWhen::Later;
  m.bias = m.biasPending ? BiasResult{}
                         : biasSpread(m.ids, m.pairs, m.visualAxes, threads, {},
                                      progress);  // the profiles' index
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
  m.wavelengths = wavelengths(m.pairs, kDefaultContextLength);
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
    m.wavelengthsUnscaled = wavelengths(plain, kDefaultContextLength);
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
                                 BiasSpreadWhen bias, const Progress& progress) {
  DesignIds d = computeDesignIds(scene, threads, progress);
  SceneMetrics m;
  m.designUsed = std::move(d.designUsed);
  m.ids = std::move(d.ids);
  m.ptd = std::move(d.ptd);
  m.visualAxes = tokenAxisIndex(m.ids, m.ids.visualIndices(), threads);
  computePairResults(m, scene, maxDistance, threads, bias, progress);
  computeSelectionResults(m, scene, threads);
  return m;
}

BiasResult sceneBiasSpread(const Scene& scene, int threads, const Progress& progress) {
  validateScene(scene);
  // The same ids, pairs and index order as computeSceneMetrics: the same bits.
  return biasSpread(effectiveIds(scene), resolvePairs(scene.frequency), threads, {}, progress);
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

double textVisualPairs(const Scene& scene) {
  return double(scene.layout.textCount()) * double(scene.layout.visualCount());
}

BiasCost biasSpreadCost(const Scene& scene) {
  const double pairsPerToken = static_cast<double>(resolvePairs(scene.frequency).size());
  return {textVisualPairs(scene),
          double(scene.layout.visualCount()) * pairsPerToken * 2.0 * sizeof(double)};
}

std::string notComputedBias(const BiasCost& cost) {
  char text[160];
  std::snprintf(text, sizeof text,
                "not computed (%.3g pairs, tables up to %s; `ropescope bias` computes any size)",
                cost.pairs, formatBytes(static_cast<std::uint64_t>(cost.tableBytes)).c_str());
  return text;
}

std::vector<DesignSummary> compareDesigns(const Scene& scene, int threads, const Progress& progress,
                                          BiasLimit limit) {
  validateScene(scene);
  const PairTable pairs = resolvePairs(scene.frequency);
  const BiasCost cost = biasSpreadCost(scene);
  const bool withBias = cost.pairs <= limit.pairs && cost.tableBytes <= limit.tableBytes;
  // Every design, and the user's own ids for design ids-file: each a row, in this order.
  struct Entry {
    std::string name, title;
    const PositionDesign* design;  // null: the ids file
  };
  std::vector<Entry> entries;
  for (const PositionDesign* d : allDesigns()) entries.push_back({d->name(), d->title(), d});
  if (scene.design == kIdsFileDesign)
    entries.push_back({kIdsFileDesign, idsFileDesign().title(), nullptr});
  const double count = static_cast<double>(entries.size());
  std::vector<DesignSummary> out;
  bool cancelled = false;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    DesignSummary row{e.name,
                      e.title,
                      kNaN,
                      kNaN,
                      kCancelledReason,
                      kCancelledReason,
                      scene.layout.textCount(),
                      scene.layout.visualCount()};
    cancelled = cancelled || (progress.cancel && progress.cancel());
    if (!cancelled) {
      // This design's share of the fraction done: its PTD the first half, its spread the second.
      auto part = [&](double from, double to) {
        Progress p{progress.cancel, {}};
        if (progress.report)
          p.report = [&, from, to](double f) {
            progress.report((k + from + (to - from) * f) / count);
          };
        return p;
      };
      try {
        const ParameterSet params =
            e.design && e.name == scene.design ? scene.designParams : ParameterSet{};
        const PositionIds ids = e.design ? e.design->ids(scene.layout, params)
                                         : idsFromFile(scene.layout, scene.fileIds, scene.idsFile);
        const PtdResult ptd = perTokenDistance(ids, threads, {}, part(0.0, withBias ? 0.5 : 1.0));
        row.ptd = ptd.ptd;
        row.ptdUndefined = ptd.undefinedReason;
        row.nText = ptd.nText;
        row.nVisual = ptd.nVisual;
        if (withBias) {
          const BiasResult bias = biasSpread(ids, pairs, threads, {}, part(0.5, 1.0));
          row.biasSpread = bias.spread;
          row.biasUndefined = bias.undefinedReason;
        } else {
          row.biasUndefined = notComputedBias(cost);
        }
      } catch (const Cancelled&) {
        cancelled = true;
        row.ptd = row.biasSpread = kNaN;
        row.ptdUndefined = row.biasUndefined = kCancelledReason;
      }
    }
    out.push_back(std::move(row));
    if (progress.report && !cancelled) progress.report((k + 1) / count);
  }
  return out;
}

std::vector<ModalityPairMetrics> sceneModalityMetrics(const Scene& scene, int threads,
                                                      const std::atomic<bool>* stop) {
  validateScene(scene);
  return modalityPairMetrics(effectiveIds(scene), resolvePairs(scene.frequency), threads,
                             kMaxInteractivePairs, kMaxInteractiveSlowPairs, stop);
}

}  // namespace ropescope
