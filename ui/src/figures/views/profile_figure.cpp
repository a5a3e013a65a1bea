// The "profile" view: the selected text token's distance and bias to every visual token, in
// visual-token order.
#include <QChart>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"

namespace ropescope::ui::figure_views {

namespace {

std::string profileFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                              const FigureOptions& o) {
  const SceneMetrics m = figure_kit::metricsOf(scene, o);
  Table t;
  t.columns = {"visual", "distance", "bias"};
  for (std::size_t i = 0; i < m.selectedDistance.size(); ++i)
    t.rows.push_back({static_cast<long long>(i), m.selectedDistance[i],
                      i < m.selectedBias.size() ? m.selectedBias[i] : 0.0});
  return figure_kit::tableText(view, t, format);
}

std::unique_ptr<QChart> profileFigureChart(const Scene& scene, const FigureView&,
                                           const FigureOptions& o) {
  return figure::profileChart(figure_kit::metricsOf(scene, o), scene.selectedText, o);
}

}  // namespace

FigureView profileView() {
  return {
      .name = "profile",
      .description = "the selected text token's distance and bias to every visual token",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = profileFigureData,
      .chart = profileFigureChart,
      .offeredOn = {FigureSurface::Charts},
  };
}

}  // namespace ropescope::ui::figure_views
