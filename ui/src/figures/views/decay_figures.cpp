// The decay views: the decay bound U(delta) per axis in its full form ("decay", all pairs, with
// the stream curve t = h = w) and its subset form ("decay-subset", only the moving axis's pairs).
// With a rope scaling each also carries the plan's curves before it.
#include <QChart>

#include <array>
#include <cmath>
#include <map>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"
#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"

namespace ropescope::ui::figure_views {

namespace {

constexpr const char* kDecayAxisNames[3] = {"t", "h", "w"};

bool decayAxisHasPairs(const PairTable& pairs, int axis) {
  return !pairs.pairsOf(static_cast<Axis>(axis)).empty();
}

// Per-axis decay curves: the full form of SceneMetrics, or the subset form (only the moving
// axis's pairs). Axes without pairs are left empty.
// MHRoPE gives each KV head one axis: the subset curve of an axis is that of a head carrying it
// (the Revisiting paper's Fig. 4b), not of the scene's kv_head only.
std::array<std::vector<double>, 3> decayFigureCurves(const Scene& scene, const SceneMetrics& m,
                                                     bool subset, int maxD) {
  std::array<std::vector<double>, 3> curves;
  for (int a = 0; a < 3; ++a) {
    const Id3 dir{a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0};
    if (!decayAxisHasPairs(m.pairs, a)) {
      if (!subset || scene.frequency.plan != "multihead") continue;
      FrequencySpec spec = scene.frequency;
      for (int head = 0; head < spec.kvHeads && curves[a].empty(); ++head) {
        spec.kvHead = head;
        const PairTable pairs = resolvePairs(spec);
        if (decayAxisHasPairs(pairs, a))
          curves[a] = decayCurve(pairs, dir, maxD, DecayForm::Subset);
      }
      continue;
    }
    curves[a] = subset ? decayCurve(m.pairs, dir, maxD, DecayForm::Subset) : m.decayAxis[a];
  }
  return curves;
}

// The same curves before the scene's rope scaling (core's unscaledPairs), for the axes
// `curves` has; all empty without a scaling.
std::array<std::vector<double>, 3> unscaledDecayFigureCurves(
    const SceneMetrics& m, const std::array<std::vector<double>, 3>& curves, bool subset,
    int maxD) {
  std::array<std::vector<double>, 3> out;
  if (!m.pairs.scaled()) return out;
  const PairTable plain = unscaledPairs(m.pairs);
  for (int a = 0; a < 3; ++a) {
    if (curves[a].empty() || !decayAxisHasPairs(m.pairs, a)) continue;
    const Id3 dir{a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0};
    out[a] = subset ? decayCurve(plain, dir, maxD, DecayForm::Subset) : m.decayAxisUnscaled[a];
  }
  return out;
}

// 10000 for RoFormer's base, 1e6 / 5e6 for the Qwen bases.
QString decayBaseText(double base) {
  if (base < 1e5) return QString::number(base, 'g', 6);
  const int e = static_cast<int>(std::floor(std::log10(base)));
  const double m = base / std::pow(10.0, e);
  return QStringLiteral("%1e%2").arg(QString::number(m, 'g', 4)).arg(e);
}

// The papers' names of the frequency plans, for titles.
QString decayPlanTitle(const std::string& plan) {
  static const std::map<std::string, const char*> names = {
      {"vanilla", "RoPE"},     {"mrope", "MRoPE"},         {"interleaved", "MRoPE-I"},
      {"multihead", "MHRoPE"}, {"videorope", "VideoRoPE"}, {"videorope-repo", "VideoRoPE"},
      {"hope", "HoPE"},        {"mm-rope", "MM-RoPE"}};
  const auto it = names.find(plan);
  return it == names.end() ? QString::fromStdString(plan) : QLatin1String(it->second);
}

std::string decayFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                            const FigureOptions& o, bool subset) {
  const SceneMetrics m = figure_kit::metricsOf(scene, o);
  const auto curves = decayFigureCurves(scene, m, subset, o.maxDistance);
  const auto unscaled = unscaledDecayFigureCurves(m, curves, subset, o.maxDistance);
  // The stream (t = h = w) curve is full form only: the subset form moves one axis.
  const bool stream = !subset && !m.decayStream.empty();
  Table t;
  t.columns = {"distance"};
  for (int a = 0; a < 3; ++a)
    if (!curves[a].empty()) t.columns.push_back(std::string("U_") + kDecayAxisNames[a]);
  for (int a = 0; a < 3; ++a)
    if (!unscaled[a].empty())
      t.columns.push_back(std::string("U_") + kDecayAxisNames[a] + "_unscaled");
  if (stream) t.columns.push_back("U_thw");
  for (std::size_t i = 0; i < m.decayDistance.size(); ++i) {
    std::vector<TableCell> row{m.decayDistance[i]};
    for (int a = 0; a < 3; ++a)
      if (!curves[a].empty()) row.push_back(curves[a][i]);
    for (int a = 0; a < 3; ++a)
      if (!unscaled[a].empty()) row.push_back(unscaled[a][i]);
    if (stream) row.push_back(m.decayStream[i]);
    t.rows.push_back(std::move(row));
  }
  return figure_kit::tableText(view, t, format);
}

std::unique_ptr<QChart> decayFigureChart(const Scene& scene, const FigureOptions& o, bool subset) {
  const SceneMetrics m = figure_kit::metricsOf(scene, o);
  const auto curves = decayFigureCurves(scene, m, subset, o.maxDistance);
  // With a rope scaling the faint curves are the plan's before it, as in the live chart; the
  // title names the scaling in place of the base, so that it fits a column; decayChart names the
  // faint curves in the legend.
  const QString title = m.pairs.scaled()
                            ? QStringLiteral("%1 decay%2, d %3, %4")
                                  .arg(decayPlanTitle(scene.frequency.plan),
                                       subset ? QStringLiteral(" (subset)") : QString())
                                  .arg(scene.frequency.rotary.headDim)
                                  .arg(QString::fromStdString(m.pairs.ropeType))
                            : QStringLiteral("%1 decay per axis%2, d %3, base %4")
                                  .arg(decayPlanTitle(scene.frequency.plan),
                                       subset ? QStringLiteral(" (subset)") : QString())
                                  .arg(scene.frequency.rotary.headDim)
                                  .arg(decayBaseText(scene.frequency.rotary.base));
  return figure::decayChart(m.decayDistance, curves, title, o,
                            subset ? std::vector<double>{} : m.decayStream,
                            unscaledDecayFigureCurves(m, curves, subset, o.maxDistance));
}

}  // namespace

FigureView decayView() {
  return {
      .name = "decay",
      .description = "decay bound U(delta) per axis, full form (all pairs)",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = [](const Scene& s, const FigureView& v, TableFormat f,
                 const FigureOptions& o) { return decayFigureData(s, v, f, o, false); },
      .chart = [](const Scene& s, const FigureView&,
                  const FigureOptions& o) { return decayFigureChart(s, o, false); },
      .offeredOn = {FigureSurface::Charts},
  };
}

FigureView decaySubsetView() {
  return {
      .name = "decay-subset",
      .description = "decay bound per axis, subset form (only the moving axis's pairs)",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = [](const Scene& s, const FigureView& v, TableFormat f,
                 const FigureOptions& o) { return decayFigureData(s, v, f, o, true); },
      .chart = [](const Scene& s, const FigureView&,
                  const FigureOptions& o) { return decayFigureChart(s, o, true); },
      .offeredOn = {FigureSurface::Charts},
  };
}

}  // namespace ropescope::ui::figure_views
