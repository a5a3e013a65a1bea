// The original picture of a picture segment with its LLM grid drawn over it, the linked
// selection of a patch, and the selected text token's distance or positional bias as a heat map.
#pragma once

#include <QImage>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace ropescope::ui {

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
  PictureOverlay overlay() const { return overlay_; }

  // For tests and tooltips. Grid of the shown picture; -1 when none.
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int temporal() const { return temporal_; }  // shown temporal patch of a video, 0 for images
  // Visual-token index of a cell of the shown picture (and temporal patch), -1 if none.
  long visualIndex(int row, int col) const;
  // The overlay's value and colour at a cell (NaN / invalid without an overlay).
  double overlayValue(int row, int col) const;
  QColor overlayColor(int row, int col) const;
  double overlayMin() const { return min_; }
  double overlayMax() const { return max_; }
  // Every patch has the same value (up to rounding): one colour, mid-map.
  bool overlayIsFlat() const { return flat_; }
  // Cell rectangle in the canvas' pixels, and the canvas (the widget the picture is drawn on).
  QRectF cellRect(int row, int col) const;
  QWidget* canvas() const { return canvas_; }
  QString caption() const;

  // Painting and input of the canvas (a private widget of this view).
  void paintCanvas(QPainter& p);
  void clickCanvas(QPointF pos);
  QString describeAt(QPointF pos) const;

 private:
  void refresh();
  void refreshSegments();
  QRectF pictureRect() const;
  QRectF colorBarRect() const;
  bool cellAt(QPointF pos, int* row, int* col) const;

  SceneModel* model_;
  WhenShown* shown_ = nullptr;  // model changes wait for a hidden view's next show
  QComboBox* segments_ = nullptr;
  QComboBox* overlayBox_ = nullptr;
  QLabel* captionLabel_ = nullptr;
  QWidget* canvas_ = nullptr;

  int segment_ = -1;
  int rows_ = -1, cols_ = -1, temporal_ = 0;
  QImage picture_;  // the shown frame, as displayed (original size)
  QString error_;
  PictureOverlay overlay_ = PictureOverlay::Distance;
  std::vector<long> cellVisual_;  // row-major: visual-token index of each cell
  std::vector<double> values_;    // row-major: overlay value of each cell
  double min_ = 0.0, max_ = 0.0;
  bool flat_ = false;  // every value equal (up to rounding)
};

}  // namespace ropescope::ui
