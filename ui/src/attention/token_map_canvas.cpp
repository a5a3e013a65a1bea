#include "attention/token_map_canvas.h"

#include <QPainter>

#include <algorithm>

namespace ropescope::ui {

namespace {

constexpr int kTokenMapBarRoom = 72;  // right of the cells: the colour bar and its labels
constexpr int kPictureAlpha = 150;

}  // namespace

TokenMapCanvas::TokenMapCanvas(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("attentionTokenMap"));
  setMinimumSize(180, 160);
}

void TokenMapCanvas::setMap(int rows, int cols, std::vector<double> values, const ColorScale& scale,
                            bool hidden) {
  rows_ = rows;
  cols_ = cols;
  values_ = std::move(values);
  scale_ = scale;
  hidden_ = hidden;
  update();
}

void TokenMapCanvas::clear() {
  setMap(0, 0, {}, ColorScale(), false);
}

void TokenMapCanvas::setPicture(const QImage& picture) {
  picture_ = picture;
  update();
}

QColor TokenMapCanvas::cellColor(int row, int col) const {
  if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return {};
  if (hidden_) return ColorScale::noValueColor();
  return scale_.color(values_[std::size_t(row) * cols_ + col]);
}

QRectF TokenMapCanvas::cellRect(int row, int col) const {
  if (rows_ <= 0 || cols_ <= 0) return {};
  const QRectF area = QRectF(rect()).adjusted(4, 4, -kTokenMapBarRoom, -4);
  const double cell = std::min(area.width() / cols_, area.height() / rows_);
  return QRectF(area.left() + col * cell, area.top() + row * cell, cell, cell);
}

void TokenMapCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (rows_ <= 0 || cols_ <= 0) return;
  const QRectF all = cellRect(0, 0).united(cellRect(rows_ - 1, cols_ - 1));
  // Over a real picture the heat is translucent, so the patch under each cell stays readable.
  const bool picture = !picture_.isNull();
  if (picture) p.drawImage(all, picture_);
  for (int r = 0; r < rows_; ++r)
    for (int c = 0; c < cols_; ++c) {
      QColor color = cellColor(r, c);
      if (picture) color.setAlpha(kPictureAlpha);
      p.fillRect(cellRect(r, c), color);
    }
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(all);
  // The map has its own scale (this one row's range), so it gets its own colour bar.
  const QRectF bar(all.right() + 10, all.top(), 12, all.height());
  if (bar.right() + 50 > width() || hidden_) return;
  p.setPen(palette().color(QPalette::Text));
  ColorBarStyle style;
  style.tickMarks = false;
  style.gap = 4;
  paintColorBar(p, bar, scale_, scale_.ticks(2), style);
}

}  // namespace ropescope::ui
