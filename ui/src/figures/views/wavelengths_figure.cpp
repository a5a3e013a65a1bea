// The "wavelengths" view: the wavelength 2 pi / theta of every rotary pair; its data is core's
// frequency table.
#include <QChart>

#include "figures/figure_charts.h"
#include "figures/figure_view_kit.h"
#include "ropescope/report.h"
#include "ropescope/wavelengths.h"

namespace ropescope::ui::figure_views {

namespace {

std::string wavelengthsFigureData(const Scene& scene, const FigureView&, TableFormat format,
                                  const FigureOptions& o) {
  return freqsReport(figure_kit::metricsOf(scene, o).wavelengths, kDefaultContextLength, format);
}

std::unique_ptr<QChart> wavelengthsFigureChart(const Scene& scene, const FigureView&,
                                               const FigureOptions& o) {
  return figure::wavelengthChart(figure_kit::metricsOf(scene, o), o);
}

}  // namespace

FigureView wavelengthsView() {
  return {
      .name = "wavelengths",
      .description = "wavelength 2pi/theta of every rotary pair",
      .kind = FigureKind::Chart,
      .formats = figure_kit::chartFormats(),
      .data = wavelengthsFigureData,
      .chart = wavelengthsFigureChart,
      .offeredOn = {FigureSurface::Charts},
  };
}

}  // namespace ropescope::ui::figure_views
