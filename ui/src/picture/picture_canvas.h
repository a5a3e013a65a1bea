// The Picture tab's canvas: the picture with each shown token's rectangle from core's token ->
// pixel map (ropescope/pixel_map.h), a heat map of one value per token (the selected text
// token's distance or positional bias, or an attention row) with its colour bar and legend, and
// the linked selection of a token. A tiled picture (InternVL) is drawn twice: its tiles, and the
// thumbnail's tokens on the whole picture. It owns what it draws; the view (picture_view.h)
// fills it from the model.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include <vector>

#include "ropescope/pixel_map.h"
#include "style/color_scale.h"

class QPainter;

namespace ropescope::ui {

class PictureCanvas : public QWidget {
  Q_OBJECT

 public:
  // What the canvas shows. Without cells it shows `emptyText`.
  struct Content {
    QImage picture;                // the shown frame, original size (null: the cells alone)
    int rows = -1, cols = -1;      // the segment's grid (one frame or tile)
    std::vector<PixelCell> cells;  // the shown tokens, as core's pixel map gives them
    std::vector<long> visual;      // per cell: its visual-token index
    std::vector<double> values;    // per cell: its value; empty for no heat map
    bool logScale = false;         // colour by log value (attention softmax)
    QString valueName;             // "distance", "positional bias": the tooltip's word
    QString legend;                // under the picture: what the colours are; empty: none
    QString emptyText;
  };

  explicit PictureCanvas(QWidget* parent = nullptr);

  void setContent(Content content);
  // The token drawn as selected (a visual-token index, -1 for none).
  void setSelectedVisual(long visual);

  int rows() const { return c_.rows; }
  int cols() const { return c_.cols; }
  const std::vector<PixelCell>& cells() const { return c_.cells; }
  // The cell of the shown frame (or the first tile) at grid (row, col); -1 if none.
  int cellIndex(int row, int col) const;
  long visualIndex(int row, int col) const;
  // The heat map's value and colour at a cell (NaN / invalid without one).
  double value(int row, int col) const;
  QColor color(int row, int col) const;
  double cellValue(int cell) const;
  QColor cellColor(int cell) const;
  const ColorScale& scale() const { return scale_; }
  double min() const { return min_; }
  double max() const { return max_; }
  bool hasValues() const { return !c_.values.empty(); }
  // Every cell has the same value (up to rounding): one colour, mid-map.
  bool isFlat() const { return flat_; }
  bool tiled() const { return thumbnailPanel_; }
  // A cell's rectangle in this widget's pixels (empty without a grid), by grid position or by
  // its index in cells().
  QRectF cellRect(int row, int col) const;
  QRectF cellWidgetRect(int cell) const;
  // The cell under `pos`, -1 for none.
  int cellAt(QPointF pos) const;
  // Where the tiles (or the one picture) and the thumbnail are drawn; the thumbnail's is empty
  // for a picture without one.
  QRectF mainPanel() const;
  QRectF thumbnailPanel() const;
  // Draws the canvas at its size on `p` (its paint event, and the exported figure).
  void paint(QPainter& p) const;
  // The canvas as painted, at its size: the overlay's PNG.
  QImage render() const;
  // The tooltip and status text of a cell (or at `pos`): the token, its rectangle, frames, tile
  // and value; empty off the picture.
  QString describeCell(int cell) const;
  QString describeAt(QPointF pos) const;
  int hoveredCell() const { return hovered_; }

 signals:
  void visualClicked(long visual);
  // The pointer moved onto another cell (-1: off the picture), with its description.
  void hoverChanged(int cell, const QString& text);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent* e) override;
  bool event(QEvent* e) override;

 private:
  QRectF drawingArea() const;
  QRectF colorBarRect() const;
  QRectF legendRect() const;
  void setHovered(int cell);

  Content c_;
  bool thumbnailPanel_ = false;
  ColorScale scale_;
  double min_ = 0.0, max_ = 0.0;
  bool flat_ = false;
  long selected_ = -1;
  int hovered_ = -1;
};

}  // namespace ropescope::ui
