// The modality bar charts: "modality-ptd" and "modality-bias", the PTD and the bias spread
// between every two modalities of the scene (core's sceneModalityMetrics); one table for both.
// No right-click menu offers them; File -> Export figure and `render` do.
#include <QChart>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"
#include "ropescope/token_groups.h"

namespace ropescope::ui::figure_views {

namespace {

std::string modalityBarsFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                                   const FigureOptions&) {
  Table t;
  t.columns = {"from", "to", "n_from", "n_to", "ptd", "bias_spread", "not_computed"};
  for (const ModalityPairMetrics& r : sceneModalityMetrics(scene))
    t.rows.push_back({std::string(tokenGroupName(r.groups.from)),
                      std::string(tokenGroupName(r.groups.to)), static_cast<long long>(r.nFrom),
                      static_cast<long long>(r.nTo), r.ptd, r.biasSpread, r.skipped});
  return figure_kit::tableText(view, t, format);
}

}  // namespace

FigureView modalityPtdView() {
  return {
      .name = "modality-ptd",
      .description = "PTD between every two modalities (text, image, video, audio)",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = modalityBarsFigureData,
      .chart =
          [](const Scene& s, const FigureView&, const FigureOptions& o) {
            return figure::modalityBarsChart(sceneModalityMetrics(s), true, o);
          },
  };
}

FigureView modalityBiasView() {
  return {
      .name = "modality-bias",
      .description = "bias spread between every two modalities",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = modalityBarsFigureData,
      .chart =
          [](const Scene& s, const FigureView&, const FigureOptions& o) {
            return figure::modalityBarsChart(sceneModalityMetrics(s), false, o);
          },
  };
}

}  // namespace ropescope::ui::figure_views
