// The "space" view: the 3-D position ids of the scene's design, titled with its PTD, rendered
// offscreen at the figure's size; its data is core's ids table, and it also writes the ids as a
// point cloud (ply, gltf: exportFigure writes core's idCloud).
#include <QPainter>

#include "figures/figure_view_kit.h"
#include "ropescope/report.h"

namespace ropescope::ui::figure_views {

namespace {

std::string spaceFigureData(const Scene& scene, const FigureView&, TableFormat format,
                            const FigureOptions& o) {
  return idsReport(figure_kit::metricsOf(scene, o).ids, format);
}

QImage spaceFigureImage(const Scene& scene, const FigureOptions& o) {
  const SceneMetrics m = figure_kit::metricsOf(scene, o);
  const QString title = figure_kit::ptdTitle(m.designUsed, m.ptd);
  QImage out = figure_kit::blankImage(o);
  const QImage view = figure_kit::renderSpace(scene, m.ids, m.selectedToken, title, o.size,
                                              figure::effectiveScale(o), o);
  QPainter p(&out);
  p.drawImage(0, 0, view);
  return out;
}

}  // namespace

FigureView spaceView() {
  return {
      .name = "space",
      .description =
          "3-D position ids of the scene's design, titled with its PTD (ply, gltf: the id cloud)",
      .kind = FigureKind::Space,
      .formats = figure_kit::cloudFormats(),
      .data = spaceFigureData,
      .image = spaceFigureImage,
      .offeredOn = {FigureSurface::Space, FigureSurface::Compare},
  };
}

}  // namespace ropescope::ui::figure_views
