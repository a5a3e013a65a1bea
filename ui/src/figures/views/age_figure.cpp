// The "age" view: the AGE schedule, which decoder layers use circle ids (core's ageLayers).
#include <QChart>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"
#include "ropescope/age_schedule.h"

namespace ropescope::ui::figure_views {

namespace {

std::string ageFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                          const FigureOptions&) {
  Table t;
  t.columns = {"layer", "circle"};
  const std::vector<bool> layers = ageLayers(scene.age);
  for (std::size_t l = 0; l < layers.size(); ++l)
    t.rows.push_back({static_cast<long long>(l), static_cast<long long>(layers[l] ? 1 : 0)});
  return figure_kit::tableText(view, t, format);
}

std::unique_ptr<QChart> ageFigureChart(const Scene& scene, const FigureView&,
                                       const FigureOptions& o) {
  return figure::ageChart(scene.age, o);
}

}  // namespace

FigureView ageView() {
  return {
      .name = "age",
      .description = "AGE schedule: which decoder layers use circle ids",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = ageFigureData,
      .chart = ageFigureChart,
      .offeredOn = {FigureSurface::Charts},
  };
}

}  // namespace ropescope::ui::figure_views
