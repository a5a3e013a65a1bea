// The "compare" view: the four schemes of the Circle-RoPE paper, each a 3-D view in its quarter
// titled with its PTD; its data is every scheme's ids with the scheme's PTD.
#include <QPainter>

#include <algorithm>

#include "figures/figure_view_kit.h"
#include "ropescope/position_ids.h"

namespace ropescope::ui::figure_views {

namespace {

std::string compareFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                              const FigureOptions& o) {
  Table t;
  t.columns = {"design", "ptd", "token", "modality", "t", "h", "w"};
  for (const std::string& d : figure_kit::circleSchemes()) {
    const SceneMetrics m = figure_kit::metricsOf(sceneUnderDesign(scene, d), o);
    for (std::size_t i = 0; i < m.ids.size(); ++i)
      t.rows.push_back({d, m.ptd.ptd, static_cast<long long>(i),
                        std::string(modalityName(m.ids.tokens[i].modality)), m.ids.ids[i][0],
                        m.ids.ids[i][1], m.ids.ids[i][2]});
  }
  return figure_kit::tableText(view, t, format);
}

QImage compareFigureImage(const Scene& scene, const FigureOptions& o) {
  const std::vector<std::string>& schemes = figure_kit::circleSchemes();
  QImage out = figure_kit::blankImage(o);
  QPainter p(&out);
  const int w = o.size.width(), h = o.size.height();
  const int cw[2] = {w / 2, w - w / 2}, ch[2] = {h / 2, h - h / 2};
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const int col = static_cast<int>(i % 2), row = static_cast<int>(i / 2);
    const Scene s = sceneUnderDesign(scene, schemes[i]);
    const SceneMetrics m = figure_kit::metricsOf(s, o);
    const QImage panel = figure_kit::renderSpace(
        s, m.ids, m.selectedToken, figure_kit::ptdTitle(schemes[i], m.ptd, true),
        QSize(cw[col], ch[row]), figure::effectiveScale(o), o, i == 1);
    p.drawImage(col * cw[0], row * ch[0], panel);
  }
  // Hairlines between the panels.
  QPen pen(figure::gridColor());
  pen.setWidthF(std::max(1.0, figure::effectiveScale(o)));
  p.setPen(pen);
  p.drawLine(QPointF(cw[0], 0), QPointF(cw[0], h));
  p.drawLine(QPointF(0, ch[0]), QPointF(w, ch[0]));
  return out;
}

}  // namespace

FigureView compareView() {
  return {
      .name = "compare",
      .description = "the four schemes of the Circle-RoPE paper (hard, unordered, spatial, circle)",
      .kind = FigureKind::Space,
      .formats = figure_kit::spaceFormats(),
      .data = compareFigureData,
      .image = compareFigureImage,
      .offeredOn = {FigureSurface::Compare, FigureSurface::Space},
  };
}

}  // namespace ropescope::ui::figure_views
