// The text token's map over a visual block: one cell per patch, coloured on the map's own scale,
// translucent over the block's picture when it has one, with its own colour bar.
#pragma once

#include <QImage>
#include <QRectF>
#include <QWidget>

#include <vector>

#include "style/color_scale.h"

namespace ropescope::ui {

class TokenMapCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit TokenMapCanvas(QWidget* parent = nullptr);

  // rows x cols values (row-major; NaN: no token at the cell) on `scale`; `hidden`: every cell
  // is no value (causal masking hides the whole block) and there is no colour bar.
  void setMap(int rows, int cols, std::vector<double> values, const ColorScale& scale, bool hidden);
  void clear();
  // The block's picture under the cells (null: none).
  void setPicture(const QImage& picture);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  const std::vector<double>& values() const { return values_; }
  const ColorScale& scale() const { return scale_; }
  QColor cellColor(int row, int col) const;  // invalid outside the grid
  QRectF cellRect(int row, int col) const;

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  int rows_ = 0, cols_ = 0;
  std::vector<double> values_;
  ColorScale scale_;
  bool hidden_ = false;
  QImage picture_;
};

}  // namespace ropescope::ui
