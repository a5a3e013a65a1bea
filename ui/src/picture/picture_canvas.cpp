#include "picture/picture_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "style/color_scale.h"

namespace ropescope::ui {

namespace {

constexpr double kOverlayAlpha = 0.55;  // the picture stays readable under the heat
constexpr int kBarWidth = 16;
constexpr int kBarMargin = 74;  // room for the bar and its value labels

}  // namespace

PictureCanvas::PictureCanvas(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 180);
  setMouseTracking(true);
  setObjectName(QStringLiteral("pictureCanvas"));
}

void PictureCanvas::setContent(Content content) {
  c_ = std::move(content);
  min_ = std::numeric_limits<double>::infinity();
  max_ = -min_;
  for (double v : c_.values) {
    if (std::isnan(v)) continue;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  if (!(max_ >= min_)) c_.values.clear();  // no cell has a value: no heat map
  // Equal up to rounding (Circle-RoPE's distances, PTD 0): one colour, not amplified noise.
  flat_ = !c_.values.empty() && ColorScale::linear(min_, max_).isFlat();
  update();
}

void PictureCanvas::setSelectedVisual(long visual) {
  if (visual == selected_) return;
  selected_ = visual;
  update();
}

long PictureCanvas::visualIndex(int row, int col) const {
  if (row < 0 || col < 0 || row >= c_.rows || col >= c_.cols) return -1;
  return c_.cellVisual[static_cast<std::size_t>(row) * c_.cols + col];
}

double PictureCanvas::value(int row, int col) const {
  if (c_.values.empty() || row < 0 || col < 0 || row >= c_.rows || col >= c_.cols)
    return std::numeric_limits<double>::quiet_NaN();
  return c_.values[static_cast<std::size_t>(row) * c_.cols + col];
}

QColor PictureCanvas::color(int row, int col) const {
  if (c_.values.empty()) return {};
  return ColorScale::linear(min_, max_).color(value(row, col));
}

QRectF PictureCanvas::colorBarRect() const {
  const QRectF area = rect();
  return QRectF(area.right() - kBarMargin + 8, area.top() + 14, kBarWidth,
                std::max(20.0, area.height() - 28));
}

QRectF PictureCanvas::pictureRect() const {
  if (c_.rows <= 0 || c_.cols <= 0) return {};
  QRectF area = rect().adjusted(4, 4, -4, -4);
  if (!c_.values.empty()) area.setRight(area.right() - kBarMargin);
  // The original picture's aspect (the grid is stretched onto it as smart_resize does).
  const QSizeF size = c_.picture.isNull() ? QSizeF(c_.cols, c_.rows) : QSizeF(c_.picture.size());
  const QSizeF fitted = size.scaled(area.size(), Qt::KeepAspectRatio);
  return QRectF(area.topLeft() + QPointF((area.width() - fitted.width()) / 2,
                                         (area.height() - fitted.height()) / 2),
                fitted);
}

QRectF PictureCanvas::cellRect(int row, int col) const {
  const QRectF r = pictureRect();
  if (r.isEmpty()) return {};
  const double w = r.width() / c_.cols, h = r.height() / c_.rows;
  return QRectF(r.left() + col * w, r.top() + row * h, w, h);
}

bool PictureCanvas::cellAt(QPointF pos, int* row, int* col) const {
  const QRectF r = pictureRect();
  if (r.isEmpty() || !r.contains(pos)) return false;
  *col = std::clamp(static_cast<int>((pos.x() - r.left()) / r.width() * c_.cols), 0, c_.cols - 1);
  *row = std::clamp(static_cast<int>((pos.y() - r.top()) / r.height() * c_.rows), 0, c_.rows - 1);
  return true;
}

void PictureCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paint(p);
}

void PictureCanvas::paint(QPainter& p) const {
  p.fillRect(rect(), palette().color(QPalette::Base));
  const QRectF r = pictureRect();
  if (r.isEmpty()) {
    p.setPen(palette().color(QPalette::Mid));
    p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, c_.emptyText);
    return;
  }
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  if (!c_.picture.isNull()) p.drawImage(r, c_.picture);

  // Heat: one cell per visual token, over the picture.
  if (!c_.values.empty()) {
    for (int row = 0; row < c_.rows; ++row)
      for (int col = 0; col < c_.cols; ++col) {
        QColor c = color(row, col);
        c.setAlphaF(kOverlayAlpha);
        p.fillRect(cellRect(row, col), c);
      }
  }

  // Grid lines: thin, light over dark with a dark halo so they read on any picture.
  p.setRenderHint(QPainter::Antialiasing, false);
  for (int pass = 0; pass < 2; ++pass) {
    p.setPen(QPen(pass == 0 ? QColor(0, 0, 0, 90) : QColor(255, 255, 255, 150), pass == 0 ? 3 : 1));
    for (int c = 0; c <= c_.cols; ++c) {
      const double x = r.left() + r.width() * c / c_.cols;
      p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
    }
    for (int row = 0; row <= c_.rows; ++row) {
      const double y = r.top() + r.height() * row / c_.rows;
      p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
    }
  }

  // The linked selection: the patch picked here or in the 3-D view.
  for (int row = 0; row < c_.rows && selected_ >= 0; ++row)
    for (int col = 0; col < c_.cols; ++col) {
      if (visualIndex(row, col) != selected_) continue;
      p.setRenderHint(QPainter::Antialiasing);
      p.setPen(QPen(QColor(0, 0, 0), 5));
      p.drawRect(cellRect(row, col));
      p.setPen(QPen(QColor(255, 230, 60), 3));
      p.drawRect(cellRect(row, col));
    }

  // Colour bar with its value labels.
  if (!c_.values.empty()) {
    const ColorScale scale = ColorScale::linear(min_, max_);
    ColorBarStyle style;
    // From the labels' start (the bar's right edge and the gap) to the canvas's edge, less a
    // pixel: the room was 4 px wider than that, and a long label ran off the canvas.
    style.labelWidth = rect().right() - colorBarRect().right() - style.gap - 1;
    p.setPen(palette().color(QPalette::Text));
    paintColorBar(p, colorBarRect(), scale, scale.ticks(5), style);
  }
}

void PictureCanvas::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  int row = 0, col = 0;
  if (!cellAt(e->position(), &row, &col)) return;
  const long v = visualIndex(row, col);
  if (v >= 0) emit visualClicked(v);
}

bool PictureCanvas::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = describeAt(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

QString PictureCanvas::describeAt(QPointF pos) const {
  int row = 0, col = 0;
  if (!cellAt(pos, &row, &col)) return {};
  QString text = tr("patch row %1, col %2 \xc2\xb7 visual token %3")
                     .arg(row)
                     .arg(col)
                     .arg(visualIndex(row, col));
  const double v = value(row, col);
  if (!std::isnan(v))
    text += QLatin1Char('\n') + c_.valueName + QLatin1Char(' ') + QString::number(v, 'g', 6);
  return text;
}

}  // namespace ropescope::ui
