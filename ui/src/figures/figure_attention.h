// The attention figure: RoPE attention logits of the scene with identical q and k (pure
// positional attention, no mask), as a heat map with segment ticks and a viridis colour bar.
// Computed by core's CPU attention backend; large sequences show block means.
#pragma once

#include <QSizeF>

#include <cstddef>
#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "ropescope/scene.h"
#include "ropescope/table_report.h"
#include "style/color_scale.h"

class QPainter;

namespace ropescope::ui {

struct AttentionFigure {
  std::size_t tokens = 0;
  int block = 1;                        // tokens per cell along each side (1: exact logits)
  int side = 0;                         // cells per side
  std::vector<float> values;            // side x side, row-major: rows are queries
  std::vector<std::size_t> boundaries;  // token index where each later segment starts
  double lo = 0.0, hi = 0.0;
  std::string design;
};

// Cells up to kMaxSide per side: longer sequences are pooled into block means.
inline constexpr int kAttentionMaxSide = 512;

AttentionFigure attentionFigure(const Scene& scene);
// The colour scale follows the data: a cell's colour is its logit's quantile among all cells
// (0 the smallest, 1 the largest), so a block of near-equal logits (the picture under M-RoPE)
// still shows its structure instead of saturating. Per cell, row-major.
std::vector<double> attentionColorPositions(const AttentionFigure& a);
// Round logits (1, 2 or 5 times a power of ten) for the colour bar, at least `minGap` (0..1)
// apart on it.
std::vector<ColorTick> attentionColorTicks(const AttentionFigure& a, double minGap);
void paintAttentionFigure(QPainter& p, QSizeF logical, const AttentionFigure& a,
                          const FigureOptions& o);
// query, key, logit (block: the first token of each block, and the block mean).
Table attentionTable(const AttentionFigure& a);

}  // namespace ropescope::ui
