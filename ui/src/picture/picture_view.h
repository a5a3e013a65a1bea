// The original picture of a picture segment with its LLM grid drawn over it, the linked
// selection of a patch, and the selected text token's distance or positional bias as a heat map.
#pragma once

#include <QColor>
#include <QRectF>
#include <QWidget>

class QComboBox;
class QLabel;

namespace ropescope::ui {

class PictureCanvas;
class SceneModel;
class WhenShown;

enum class PictureOverlay { None, Distance, Bias };

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

  SceneModel* model_;
  WhenShown* shown_ = nullptr;  // model changes wait for a hidden view's next show
  QComboBox* segments_ = nullptr;
  QComboBox* overlayBox_ = nullptr;
  QLabel* captionLabel_ = nullptr;
  PictureCanvas* canvas_ = nullptr;

  int segment_ = -1;
  int temporal_ = 0;
  int unpickedTemporal_ = 0;
  QString error_;
  PictureOverlay overlay_ = PictureOverlay::Distance;
};

}  // namespace ropescope::ui
