// The every-design bar charts: "ptd" and "bias", the PTD and the bias spread of every design on
// the scene's layout (core's compareDesigns), the scene's design marked; one table for both.
#include <QChart>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"

namespace ropescope::ui::figure_views {

namespace {

std::string designBarsFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                                 const FigureOptions&) {
  Table t;
  t.columns = {"design", "title", "ptd", "bias_spread"};
  for (const DesignSummary& d : compareDesigns(scene))
    t.rows.push_back({d.design, d.title, d.ptd, d.biasSpread});
  return figure_kit::tableText(view, t, format);
}

std::unique_ptr<QChart> designBarsFigureChart(const Scene& scene, const FigureOptions& o,
                                              bool ptd) {
  return figure::designBarsChart(compareDesigns(scene), effectiveDesign(scene), ptd, o);
}

}  // namespace

FigureView ptdView() {
  return {
      .name = "ptd",
      .description = "PTD of every design on the scene's layout",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = designBarsFigureData,
      .chart = [](const Scene& s, const FigureView&,
                  const FigureOptions& o) { return designBarsFigureChart(s, o, true); },
      .offeredOn = {FigureSurface::Charts},
  };
}

FigureView biasView() {
  return {
      .name = "bias",
      .description = "bias spread of every design on the scene's layout",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = designBarsFigureData,
      .chart = [](const Scene& s, const FigureView&,
                  const FigureOptions& o) { return designBarsFigureChart(s, o, false); },
      .offeredOn = {FigureSurface::Charts},
  };
}

}  // namespace ropescope::ui::figure_views
