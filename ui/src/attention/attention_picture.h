// The one builder of attention heat maps, for the screen and for papers: the cells, their frame,
// the segment boundaries, the title and the colour bar, laid out and coloured by a look (screen
// dark, screen light, publication). The live view (AttentionHeatmap) adds only hover and click;
// the exported figure (figures/figure_attention.h) adds axis titles through the same builder.
#pragma once

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

#include "style/color_scale.h"

class QPainter;
class QPalette;

namespace ropescope::ui {

struct HeatmapLook {
  enum class Kind { ScreenDark, ScreenLight, Publication };
  Kind kind = Kind::Publication;
  QColor background, foreground;
  // The screen's look: dark or light as the palette's base, in the palette's colours and font.
  static HeatmapLook screen(const QPalette& palette);
  // Papers: white, the figure palette's foreground and fonts (figures/figure_style.h).
  static HeatmapLook publication();
  bool isPublication() const { return kind == Kind::Publication; }
};

// What one heat map shows.
struct AttentionPicture {
  QImage cells;                  // one pixel per cell, already coloured
  QRectF source;                 // the part of `cells` shown; null: all of it
  std::vector<double> edges;     // segment boundaries, fractions 0..1 along the shown range
  ColorScale scale;              // the values' range (and whether it is flat)
  std::vector<ColorTick> ticks;  // labelled values on the colour bar
  int digits = 4;                // significant digits of the bar's labels
  QString title;                 // empty: no title
  QString keyTitle, queryTitle;  // axis titles (publication only; empty: none)
  QString barTitle;              // along the colour bar (publication only; empty: none)
  bool maskedSwatch = false;     // a "masked" (no value) swatch under the bar
};

struct AttentionLayout {
  QRectF map;  // the cells
  QRectF bar;  // the colour bar
};
// Where the map and its bar go on a canvas of `size` under `look`, with or without a title.
AttentionLayout attentionLayout(QSizeF size, const HeatmapLook& look, bool title);

void paintAttentionPicture(QPainter& p, QSizeF size, const AttentionPicture& pic,
                           const HeatmapLook& look);

}  // namespace ropescope::ui
