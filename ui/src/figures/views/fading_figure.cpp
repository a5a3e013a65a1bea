// The "fading" view: visual fading, each text token's attention share on the visual tokens
// after the last picture, a curve per design (the Circle-RoPE paper's four schemes and the
// scene's design when another) on the same random q/k (seed 0, 4 heads), so that its curves
// differ by position alone (core's attention_readouts.h).
#include <QChart>

#include <algorithm>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"
#include "ropescope/attention_readouts.h"
#include "ropescope/errors.h"

namespace ropescope::ui::figure_views {

namespace {

constexpr int kFadingFigureHeads = 4;

// The curves: each design's mean visual share over heads, and the uniform share.
struct FadingFigure {
  std::vector<std::size_t> tokens;
  std::vector<double> uniform;
  std::vector<figure::FadingCurve> curves;
  std::string current;
};

FadingFigure fadingFigure(const Scene& scene) {
  FadingFigure f;
  f.current = effectiveDesign(scene);
  std::vector<std::string> designs = figure_kit::circleSchemes();
  if (std::find(designs.begin(), designs.end(), f.current) == designs.end())
    designs.push_back(f.current);
  QkSourceSpec source;
  source.kind = QkSourceSpec::Kind::Random;
  source.heads = kFadingFigureHeads;
  for (const std::string& d : designs) {
    const AttentionReadouts r = sceneAttentionReadouts(sceneUnderDesign(scene, d), source);
    if (!r.fadingUndefined.empty()) throw InputError(figure_kit::kNeedsTextAfterVisual, "view");
    f.tokens = r.fadingTokens;
    f.uniform = r.fadingUniform;
    f.curves.push_back({d, r.fading});
  }
  return f;
}

std::string fadingFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                             const FigureOptions&) {
  const FadingFigure f = fadingFigure(scene);
  Table t;
  t.columns = {"text_token", "token", "uniform"};
  for (const auto& c : f.curves) t.columns.push_back(c.design);
  for (std::size_t i = 0; i < f.tokens.size(); ++i) {
    std::vector<TableCell> row = {static_cast<long long>(i + 1),
                                  static_cast<long long>(f.tokens[i]), f.uniform[i]};
    for (const auto& c : f.curves) row.push_back(c.share[i]);
    t.rows.push_back(std::move(row));
  }
  return figure_kit::tableText(view, t, format);
}

std::unique_ptr<QChart> fadingFigureChart(const Scene& scene, const FigureView& view,
                                          const FigureOptions& o) {
  checkFigureNeeds(scene, view);
  const FadingFigure f = fadingFigure(scene);
  return figure::fadingChart(
      f.curves, f.uniform, f.current,
      QStringLiteral("Visual fading, %1 random q/k heads").arg(kFadingFigureHeads), o);
}

}  // namespace

FigureView fadingView() {
  return {
      .name = "fading",
      .description =
          "visual fading: each text token's attention on the visual tokens after the last "
          "picture, a curve per design (hard, unordered, spatial, circle and the scene's) on the "
          "same random q/k",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .needs = FigureNeed::TextAfterVisual,
      .data = fadingFigureData,
      .chart = fadingFigureChart,
  };
}

}  // namespace ropescope::ui::figure_views
