// The publication look of exported figures: a light theme whatever the screen theme, DejaVu Sans
// at sizes that read at single-column width, line widths, one palette, titles and legends
// switchable. A figure is laid out on a canvas of logical pixels, 144 per inch, and drawn at
// `scale` device pixels per logical pixel.
#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>

#include <optional>
#include <string>

#include "ropescope/decay.h"
#include "ropescope/position_ids.h"
#include "sound/sound_overlay.h"

class QChart;
class QPainter;

namespace ropescope::ui {

struct FigureOptions {
  QSize size{1050, 750};  // output pixels (PNG); vector outputs use the same canvas
  double scale = 0.0;     // device pixels per logical pixel; 0 = auto (a 3.5 in wide canvas)
  bool title = true;
  bool legend = true;
  // 3-D views: tokens coloured by modality (the toolbar's "Colour by"), else by grid cell.
  bool colorByModality = false;
  int maxDistance = kDefaultDecayDistance;  // decay charts: distances 0..maxDistance
  // The phasor view: Δ = phasorDistance positions along phasorAlong (t, h, w or thw), as the
  // Phasors tab's slider; phasorDelta, when set, is the displacement itself (the tab's
  // "selected tokens").
  int phasorDistance = 3;
  std::string phasorAlong = "h";
  std::optional<Id3> phasorDelta;
  // Picture and sound figures show what their tab shows: `segment` is the layout segment (-1:
  // the first picture or sound), `selectedVisual` the visual token picked (-1: none; as in the
  // tab it picks a video's temporal patch and is drawn selected), `temporalPatch` the temporal
  // patch of a video shown while none of its tokens is picked (0-based, render's --temporal-patch),
  // and `soundOverlay` the Sound tab's map (spans only, distance or positional bias).
  int segment = -1;
  long selectedVisual = -1;
  int temporalPatch = 0;
  SoundOverlay soundOverlay = SoundOverlay::Distance;
};

namespace figure {

inline constexpr double kLogicalPerInch = 144.0;
// The canvas width that prints at one column (3.5 in) with the font sizes below.
inline constexpr double kColumnWidth = 3.5 * kLogicalPerInch;  // 504 logical px
inline constexpr int kMinSide = 16, kMaxSide = 8192;
// Below half a device pixel per layout pixel the label text (13 layout px) falls under 6.5
// device px: unreadable, so smaller figures are refused rather than drawn illegibly.
inline constexpr double kMinScale = 0.5, kMaxScale = 16.0;
// The smallest category name a bar chart with many rows may shrink to (logical px; 3.5 pt at a
// column): every design's name still shows on the default 1050x750 figure.
inline constexpr int kMinLabelPixels = 7;
// The smallest canvas every view's text and furniture fits on, in layout pixels.
inline constexpr double kMinCanvasWidth = 240, kMinCanvasHeight = 180;
// The white kept between a painted figure's drawing and its page's edges (layout px): what the
// charts keep at their right (5 pt at a column), so that a colour bar's labels do not touch
// the edge at any size.
inline constexpr double kPageMargin = 10.0;
// The distances the Phasors tab and the phasor figure accept: 0..kPhasorMaxDistance.
inline constexpr int kPhasorMaxDistance = 4096;

// Auto scale: the canvas is one column wide (scale = width / 504, below 1 for small figures:
// the whole figure drawn smaller, never cropped). Otherwise the given scale.
double effectiveScale(const FigureOptions& o);
// The canvas in logical pixels: size / scale.
QSizeF logicalSize(const FigureOptions& o);
// Throws InputError naming the accepted range for a bad size or scale; a size whose text cannot
// fit is refused with the smallest size that works.
void validate(const FigureOptions& o);

enum class Text { Title, AxisTitle, Label, Legend };
// The style strategy every figure font carries, and no interface font does (font() says why).
inline constexpr QFont::StyleStrategy kFigureFontStrategy = QFont::PreferQuality;
QFont font(Text role);  // DejaVu Sans, pixel sizes in logical pixels (7-8 pt at a column)
// Draws `text` centred in `rect` in the role's font, made smaller (down to 70 %) where it is
// wider than the rect and elided beyond that: a long design name never runs off the figure.
void drawFittedText(QPainter& p, const QRectF& rect, Text role, const QString& text);

inline constexpr double kLineWidth = 2.0;  // data lines, logical px (1 pt)
inline constexpr double kGridWidth = 0.75;

// One palette: the axis colours of axis_colors.h for t/h/w, and these for the rest.
QColor foreground();    // text, axes
QColor gridColor();     // grid lines
QColor neutralBar();    // bars of other designs
QColor currentColor();  // the scene's own design, picked markers
QColor distanceColor();
QColor biasColor();

// Light theme, fonts, line widths, title and legend per the options. Call after the chart has
// its series and axes.
void styleChart(QChart* chart, const FigureOptions& o);

}  // namespace figure
}  // namespace ropescope::ui
