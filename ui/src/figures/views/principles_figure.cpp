// The "principles" view: the design principles of arXiv 2510.23095 (coherence, frequency use,
// text prior) for the scene's design and the paper's designs (core's principlesFigureRows,
// drawn by figures/figure_principles.h); its JSON is core's principles report.
#include <QPainter>

#include "figures/figure_principles.h"
#include "figures/figure_view_kit.h"
#include "ropescope/principles.h"
#include "ropescope/principles_report.h"

namespace ropescope::ui::figure_views {

namespace {

std::string principlesFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                                 const FigureOptions&) {
  const std::vector<PrinciplesVerdict> rows = principlesFigureRows(scene);
  if (format == TableFormat::Json) return principlesReport(rows, PrinciplesFormat::Json);
  Table t;
  t.columns = {"label", "design", "plan", "coherence", "frequency", "text_prior"};
  for (const PrinciplesVerdict& r : rows)
    t.rows.push_back({r.label, r.design, r.plan, std::string(verdictName(r.coherence.verdict)),
                      std::string(verdictName(r.frequency.verdict)),
                      std::string(verdictName(r.text.verdict))});
  return figure_kit::tableText(view, t, format);
}

}  // namespace

FigureView principlesView() {
  return {
      .name = "principles",
      .description =
          "the design principles of arXiv 2510.23095 (coherence, frequency use, text prior): the "
          "scene's design and the paper's designs",
      .kind = FigureKind::Painted,
      .formats = figure_kit::chartFormats(),
      .data = principlesFigureData,
      .painter = [](const Scene& s, const FigureOptions& o) -> FigurePainter {
        const std::vector<PrinciplesVerdict> rows = principlesFigureRows(s);
        return
            [rows, o](QPainter& p, QSizeF logical) { paintPrinciplesFigure(p, logical, rows, o); };
      },
  };
}

}  // namespace ropescope::ui::figure_views
