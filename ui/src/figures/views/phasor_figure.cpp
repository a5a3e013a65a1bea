// The "phasor" view: the Phasors tab, every rotary pair's phase at a displacement (the options'
// phasorDelta, else phasorDistance positions along phasorAlong: render's --distance and
// --along); its data is every pair's phase, turn and contribution to the sum.
#include <QPainter>

#include "figures/figure_view_kit.h"
#include "ropescope/phasor.h"
#include "teaching/phasor_view.h"

namespace ropescope::ui::figure_views {

namespace {

// The phasor picture of the Phasors tab for the options' displacement (core's computePhasor on
// the scene's pair table).
Phasor phasorFigureOf(const Scene& scene, const FigureOptions& o) {
  const Id3 delta =
      o.phasorDelta ? *o.phasorDelta : directionDisplacement(o.phasorAlong, o.phasorDistance);
  return computePhasor(figure_kit::metricsOf(scene, o).pairs, delta);
}

void paintPhasorFigure(QPainter& p, QSizeF logical, const Phasor& ph, const FigureOptions& o) {
  p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
  p.setFont(figure::font(figure::Text::Label));
  paintPhasor(p, QRectF(QPointF(0, 0), logical).toAlignedRect(), ph, false,
              o.title ? phasorCaption(ph) : QString());
}

Table phasorTable(const Phasor& ph) {
  Table t;
  t.columns = {"pair",   "axis",       "theta",       "delta_t", "delta_h", "delta_w",
               "phase",  "wrapped",    "turns",       "re",      "im",      "sum_re",
               "sum_im", "sum_length", "decay_bound", "bias"};
  for (const PhasorPair& q : ph.pairs)
    t.rows.push_back({static_cast<long long>(q.index), std::string(axisName(q.axis)), q.theta,
                      ph.delta[0], ph.delta[1], ph.delta[2], q.phase, q.wrapped, q.turns, q.re,
                      q.im, q.sumRe, q.sumIm, q.sumLength, ph.decayBound, ph.bias});
  return t;
}

}  // namespace

FigureView phasorView() {
  return {
      .name = "phasor",
      .description =
          "the Phasors tab: every rotary pair's phase at a displacement (--distance, --along)",
      .kind = FigureKind::Painted,
      .formats = figure_kit::chartFormats(),
      .data =
          [](const Scene& s, const FigureView& v, TableFormat f, const FigureOptions& o) {
            return figure_kit::tableText(v, phasorTable(phasorFigureOf(s, o)), f);
          },
      .painter = [](const Scene& s, const FigureOptions& o) -> FigurePainter {
        const Phasor ph = phasorFigureOf(s, o);
        return [ph, o](QPainter& p, QSizeF logical) { paintPhasorFigure(p, logical, ph, o); };
      },
      .offeredOn = {FigureSurface::Phasor},
      .takesDisplacement = true,
  };
}

}  // namespace ropescope::ui::figure_views
