// The Picture tab's canvas: the picture with its LLM grid, a heat map of one value per patch
// (the selected text token's distance or positional bias, as the view computed them) with its
// colour bar, and the linked selection of a patch. It owns what it draws; the view
// (picture_view.h) fills it from the model.
#pragma once

#include <QImage>
#include <QString>
#include <QWidget>

#include <vector>

class QPainter;

namespace ropescope::ui {

class PictureCanvas : public QWidget {
  Q_OBJECT

 public:
  // What the canvas shows. Without a grid (rows or cols <= 0) it shows `emptyText`.
  struct Content {
    QImage picture;  // the shown frame, original size (null: the grid alone)
    int rows = -1, cols = -1;
    std::vector<long> cellVisual;  // row-major: visual-token index of each cell, -1 for none
    std::vector<double> values;    // row-major: one value per cell; empty for no heat map
    QString valueName;             // "distance", "positional bias": the tooltip's word
    QString emptyText;
  };

  explicit PictureCanvas(QWidget* parent = nullptr);

  void setContent(Content content);
  // The patch drawn as selected (a visual-token index, -1 for none).
  void setSelectedVisual(long visual);

  int rows() const { return c_.rows; }
  int cols() const { return c_.cols; }
  long visualIndex(int row, int col) const;
  // The heat map's value and colour at a cell (NaN / invalid without one).
  double value(int row, int col) const;
  QColor color(int row, int col) const;
  double min() const { return min_; }
  double max() const { return max_; }
  bool hasValues() const { return !c_.values.empty(); }
  // Every cell has the same value (up to rounding): one colour, mid-map.
  bool isFlat() const { return flat_; }
  // A cell's rectangle in this widget's pixels (empty without a grid).
  QRectF cellRect(int row, int col) const;
  // Draws the canvas at its size on `p` (its paint event, and the exported figure).
  void paint(QPainter& p) const;
  // The tooltip text at `pos`: the patch, its visual token and value; empty off the picture.
  QString describeAt(QPointF pos) const;

 signals:
  void visualClicked(long visual);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  bool event(QEvent* e) override;

 private:
  QRectF pictureRect() const;
  QRectF colorBarRect() const;
  bool cellAt(QPointF pos, int* row, int* col) const;

  Content c_;
  double min_ = 0.0, max_ = 0.0;
  bool flat_ = false;
  long selected_ = -1;
};

}  // namespace ropescope::ui
