// The "attention" view: RoPE attention logits with identical q and k (pure positional
// attention), drawn as the attention preview's heat map in its publication look
// (figures/figure_attention.h); its data is every (pooled) cell's logit.
#include <QPainter>

#include "figures/figure_attention.h"
#include "figures/figure_view_kit.h"

namespace ropescope::ui::figure_views {

FigureView attentionView() {
  return {
      .name = "attention",
      .description = "RoPE attention logits with identical q and k (pure positional attention)",
      .kind = FigureKind::Heatmap,
      .formats = figure_kit::chartFormats(),
      .data =
          [](const Scene& s, const FigureView& v, TableFormat f, const FigureOptions&) {
            return figure_kit::tableText(v, attentionTable(attentionFigure(s)), f);
          },
      .painter = [](const Scene& s, const FigureOptions& o) -> FigurePainter {
        const AttentionFigure a = attentionFigure(s);
        return [a, o](QPainter& p, QSizeF logical) { paintAttentionFigure(p, logical, a, o); };
      },
      .offeredOn = {FigureSurface::Attention},
      // The figure is the identical-q,k logits whatever the dock shows (softmax, random or
      // loaded q/k), which the bare name did not say.
      .menuText =
          QT_TRANSLATE_NOOP("ropescope::ui::FigureMenu",
                            "Export attention figure (logits, identical q and k)\xe2\x80\xa6"),
  };
}

}  // namespace ropescope::ui::figure_views
