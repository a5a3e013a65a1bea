// The original picture of a picture segment (a file, or an InternVL tiled picture) with each
// token's rectangle from core's token -> pixel map drawn over it, the linked selection of a
// token, the hovered token's rectangle, frames and tile, and a heat map: the selected text
// token's distance or positional bias, or the attention dock's query row. Exports the map (CSV,
// JSON: core's pixel_map_report.h, as `ropescope pixels`) and the overlay (PNG).
#pragma once

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/pixel_map.h"
#include "ropescope/report.h"

class QComboBox;
class QLabel;
class QToolButton;

namespace ropescope::ui {

class PictureCanvas;
class SceneModel;
class WhenShown;

enum class PictureOverlay { None, Distance, Bias, Attention };

// One attention row as the attention dock shows it: the query's weights over every token of the
// scene it was computed for.
struct PictureAttention {
  std::vector<double> row;  // one value per token of `layout`
  long query = -1;          // the query token
  QString queryName;        // "token 5 (text)"
  QString what;             // "softmax", "logits"
  bool logScale = false;    // coloured by log value, as the dock's map is
  Layout layout;            // the scene's layout it was computed for
};

// Whether the Picture tab lists a segment: a picture file, or an InternVL tiled picture.
bool shownOnPictureTab(const Segment& seg);

class PictureView : public QWidget {
  Q_OBJECT

 public:
  explicit PictureView(SceneModel* model, QWidget* parent = nullptr);

  // Layout segment shown (index into the layout), -1 when the layout has no picture.
  int shownSegment() const { return segment_; }
  // Shows picture segment `segment` (an index into the layout) if it is one.
  void showSegment(int segment);
  void setOverlay(PictureOverlay overlay);
  // The temporal patch of a video shown while none of its tokens is picked (a figure's
  // --temporal-patch; 0, the first, unless set). Out of the video's range: its cells show no
  // tokens.
  void setUnpickedTemporal(int temporal);
  PictureOverlay overlay() const { return overlay_; }
  // The attention dock's query row, for the Attention overlay; an empty row clears it.
  void setAttention(PictureAttention attention);

  // The token -> pixel map of the whole layout (core's pixelMap, the scene's image grid), and
  // its report as `ropescope pixels` writes it. Throws InputError as pixelMap does.
  std::vector<PixelCell> pixelMapOfScene() const;
  std::string pixelMapText(TableFormat format) const;
  // Writes the map (.csv, or .json by the name) or the overlay as drawn (PNG) atomically;
  // throws InputError naming the problem.
  void exportMap(const QString& path) const;
  void exportOverlay(const QString& path) const;
  // The status line: the hovered token's rectangle, frames and tile.
  QString hoverText() const;

  // For tests. Grid of the shown picture; -1 when none.
  int rows() const;
  int cols() const;
  int temporal() const { return temporal_; }  // shown temporal patch of a video, 0 for images
  // Visual-token index of a cell of the shown picture (and temporal patch), -1 if none.
  long visualIndex(int row, int col) const;
  // The overlay's value and colour at a cell (NaN / invalid without an overlay).
  double overlayValue(int row, int col) const;
  QColor overlayColor(int row, int col) const;
  // Every patch has the same value (up to rounding): one colour, mid-map.
  bool overlayIsFlat() const;
  // Cell rectangle in the canvas' pixels, and the canvas (the widget the picture is drawn on).
  QRectF cellRect(int row, int col) const;
  PictureCanvas* canvas() const { return canvas_; }
  QString caption() const;

 private:
  // Fills the canvas from the model: the shown segment's frame, its cells' visual tokens and
  // the overlay's values (the core's SceneMetrics::selectedDistance / selectedBias).
  void refresh();
  void refreshSegments();
  void askExportMap();
  void askExportOverlay();

  SceneModel* model_;
  WhenShown* shown_ = nullptr;  // model changes wait for a hidden view's next show
  QComboBox* segments_ = nullptr;
  QComboBox* overlayBox_ = nullptr;
  QLabel* captionLabel_ = nullptr;
  QLabel* hoverLabel_ = nullptr;
  QToolButton* exportButton_ = nullptr;
  PictureCanvas* canvas_ = nullptr;

  int segment_ = -1;
  int temporal_ = 0;
  int unpickedTemporal_ = 0;
  QString error_;
  mutable std::vector<PixelCell> map_;  // the layout's pixel map, made again when it changes
  mutable bool mapStale_ = true;
  PictureAttention attention_;
  PictureOverlay overlay_ = PictureOverlay::Distance;
};

}  // namespace ropescope::ui
