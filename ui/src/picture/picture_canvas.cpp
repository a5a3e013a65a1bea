#include "picture/picture_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace ropescope::ui {

namespace {

constexpr double kOverlayAlpha = 0.55;  // the picture stays readable under the heat
constexpr int kBarWidth = 16;
constexpr int kBarMargin = 74;       // room for the bar and its value labels
constexpr int kLegendBand = 20;      // the legend's line under the picture
constexpr int kPanelTitleBand = 18;  // a tiled picture's panel titles
constexpr double kPanelGap = 10;

// Fits `size` into `area`, centred.
QRectF fittedPictureRect(QSizeF size, const QRectF& area) {
  if (size.isEmpty() || area.isEmpty()) return {};
  const QSizeF fitted = size.scaled(area.size(), Qt::KeepAspectRatio);
  return QRectF(area.topLeft() + QPointF((area.width() - fitted.width()) / 2,
                                         (area.height() - fitted.height()) / 2),
                fitted);
}

// A rectangle of the picture's pixels placed on `panel`, which shows the whole picture.
QRectF pictureToPanel(const PixelCell& c, double x0, double y0, double x1, double y1,
                      const QRectF& panel) {
  const double sx = panel.width() / c.width, sy = panel.height() / c.height;
  return QRectF(QPointF(panel.left() + x0 * sx, panel.top() + y0 * sy),
                QPointF(panel.left() + x1 * sx, panel.top() + y1 * sy));
}

QString pixelEdgeText(double v) {
  return QString::number(v, 'g', 8);
}

}  // namespace

PictureCanvas::PictureCanvas(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 180);
  setMouseTracking(true);
  setObjectName(QStringLiteral("pictureCanvas"));
}

void PictureCanvas::setContent(Content content) {
  c_ = std::move(content);
  thumbnailPanel_ =
      std::any_of(c_.cells.begin(), c_.cells.end(), [](const PixelCell& p) { return p.thumbnail; });
  min_ = std::numeric_limits<double>::infinity();
  max_ = -min_;
  ValueRange range;
  for (double v : c_.values) {
    if (std::isnan(v)) continue;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    range.add(v);
  }
  if (!(max_ >= min_)) c_.values.clear();  // no cell has a value: no heat map
  scale_ = c_.logScale ? ColorScale::fitting(range, true) : ColorScale::linear(min_, max_);
  // Equal up to rounding (Circle-RoPE's distances, PTD 0): one colour, not amplified noise.
  flat_ = !c_.values.empty() && scale_.isFlat();
  hovered_ = -1;
  update();
}

void PictureCanvas::setSelectedVisual(long visual) {
  if (visual == selected_) return;
  selected_ = visual;
  update();
}

int PictureCanvas::cellIndex(int row, int col) const {
  if (row < 0 || col < 0 || row >= c_.rows || col >= c_.cols) return -1;
  // The cells come frame by frame (tile by tile), row-major: the first frame's is direct.
  const std::size_t k = static_cast<std::size_t>(row) * c_.cols + col;
  if (k < c_.cells.size() && c_.cells[k].row == row && c_.cells[k].col == col)
    return static_cast<int>(k);
  return -1;
}

long PictureCanvas::visualIndex(int row, int col) const {
  const int k = cellIndex(row, col);
  return k < 0 ? -1 : c_.visual[static_cast<std::size_t>(k)];
}

double PictureCanvas::cellValue(int cell) const {
  if (c_.values.empty() || cell < 0 || cell >= static_cast<int>(c_.values.size()))
    return std::numeric_limits<double>::quiet_NaN();
  return c_.values[static_cast<std::size_t>(cell)];
}

QColor PictureCanvas::cellColor(int cell) const {
  if (c_.values.empty() || cell < 0) return {};
  return scale_.color(cellValue(cell));
}

double PictureCanvas::value(int row, int col) const {
  return cellValue(cellIndex(row, col));
}

QColor PictureCanvas::color(int row, int col) const {
  const int k = cellIndex(row, col);
  return k < 0 ? QColor() : cellColor(k);
}

QRectF PictureCanvas::colorBarRect() const {
  const QRectF area = rect();
  const double legend = c_.legend.isEmpty() ? 0 : kLegendBand;
  return QRectF(area.right() - kBarMargin + 8, area.top() + 14, kBarWidth,
                std::max(20.0, area.height() - 28 - legend));
}

QRectF PictureCanvas::legendRect() const {
  if (c_.legend.isEmpty() || c_.values.empty()) return {};
  return QRectF(6, height() - kLegendBand, width() - 12, kLegendBand);
}

QRectF PictureCanvas::drawingArea() const {
  QRectF area = QRectF(rect()).adjusted(4, 4, -4, -4);
  if (!c_.values.empty()) area.setRight(area.right() - kBarMargin);
  if (!legendRect().isEmpty()) area.setBottom(area.bottom() - kLegendBand);
  return area;
}

QRectF PictureCanvas::mainPanel() const {
  if (c_.cells.empty()) return {};
  const PixelCell& first = c_.cells.front();
  // The picture's own aspect: the cells are in its pixels.
  const QSizeF size(first.width, first.height);
  const QRectF area = drawingArea();
  if (!thumbnailPanel_) return fittedPictureRect(size, area);
  // Tiles and thumbnail side by side or one above the other, whichever shows them larger.
  const QRectF left(area.left(), area.top() + kPanelTitleBand, (area.width() - kPanelGap) / 2,
                    area.height() - kPanelTitleBand);
  const QRectF top(area.left(), area.top() + kPanelTitleBand, area.width(),
                   (area.height() - kPanelGap) / 2 - kPanelTitleBand);
  const QRectF a = fittedPictureRect(size, left), b = fittedPictureRect(size, top);
  return a.width() >= b.width() ? a : b;
}

QRectF PictureCanvas::thumbnailPanel() const {
  if (!thumbnailPanel_) return {};
  const QRectF main = mainPanel();
  const QRectF area = drawingArea();
  const bool sideBySide = main.right() <= area.center().x() + 1;
  return sideBySide ? main.translated(area.width() / 2 + kPanelGap / 2, 0)
                    : main.translated(0, area.height() / 2 + kPanelGap / 2);
}

QRectF PictureCanvas::cellWidgetRect(int cell) const {
  if (cell < 0 || cell >= static_cast<int>(c_.cells.size())) return {};
  const PixelCell& p = c_.cells[static_cast<std::size_t>(cell)];
  return pictureToPanel(p, p.x0, p.y0, p.x1, p.y1, p.thumbnail ? thumbnailPanel() : mainPanel());
}

QRectF PictureCanvas::cellRect(int row, int col) const {
  return cellWidgetRect(cellIndex(row, col));
}

int PictureCanvas::cellAt(QPointF pos) const {
  for (const QRectF& panel : {mainPanel(), thumbnailPanel()}) {
    if (panel.isEmpty() || !panel.contains(pos)) continue;
    const bool thumb = panel == thumbnailPanel() && thumbnailPanel_;
    for (std::size_t k = 0; k < c_.cells.size(); ++k) {
      const PixelCell& p = c_.cells[k];
      if (p.thumbnail != thumb) continue;
      // Half-open, as the map's rectangles are.
      const QRectF r = pictureToPanel(p, p.x0, p.y0, p.x1, p.y1, panel);
      if (pos.x() >= r.left() && pos.x() < r.right() && pos.y() >= r.top() && pos.y() < r.bottom())
        return static_cast<int>(k);
    }
  }
  return -1;
}

void PictureCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paint(p);
}

QImage PictureCanvas::render() const {
  QImage image(size(), QImage::Format_RGB32);
  QPainter p(&image);
  paint(p);
  return image;
}

void PictureCanvas::paint(QPainter& p) const {
  p.fillRect(rect(), palette().color(QPalette::Base));
  const QRectF main = mainPanel();
  if (main.isEmpty()) {
    p.setPen(palette().color(QPalette::Mid));
    p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, c_.emptyText);
    return;
  }
  const PixelCell& first = c_.cells.front();
  const QRectF thumb = thumbnailPanel();
  for (const QRectF& panel : {main, thumb}) {
    if (panel.isEmpty()) continue;
    const bool isThumb = panel == thumb;
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    if (!c_.picture.isNull())
      p.drawImage(panel, c_.picture);
    else
      p.fillRect(panel, palette().color(QPalette::AlternateBase));

    // Heat: each token's rectangle from the map, over the picture.
    if (!c_.values.empty()) {
      for (std::size_t k = 0; k < c_.cells.size(); ++k) {
        const PixelCell& cell = c_.cells[k];
        if (cell.thumbnail != isThumb) continue;
        QColor c = cellColor(static_cast<int>(k));
        c.setAlphaF(kOverlayAlpha);
        p.fillRect(pictureToPanel(cell, cell.x0, cell.y0, cell.x1, cell.y1, panel), c);
      }
    }

    // Token edges, and the tiles' edges bolder: light over a dark halo, readable on any picture.
    std::set<double> xs, ys, tileXs, tileYs;
    for (const PixelCell& cell : c_.cells) {
      if (cell.thumbnail != isThumb) continue;
      xs.insert(cell.x0);
      xs.insert(cell.x1);
      ys.insert(cell.y0);
      ys.insert(cell.y1);
      if (cell.tile >= 0 && !cell.thumbnail && cell.row == 0 && cell.col == 0) {
        tileXs.insert(cell.x0);
        tileYs.insert(cell.y0);
      }
    }
    if (!tileXs.empty()) {
      tileXs.insert(first.width);
      tileYs.insert(first.height);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    const auto lines = [&](const std::set<double>& vx, const std::set<double>& vy) {
      for (double x : vx) {
        const QRectF l = pictureToPanel(first, x, 0, x, first.height, panel);
        p.drawLine(l.topLeft(), l.bottomLeft());
      }
      for (double y : vy) {
        const QRectF l = pictureToPanel(first, 0, y, first.width, y, panel);
        p.drawLine(l.topLeft(), l.topRight());
      }
    };
    for (int pass = 0; pass < 2; ++pass) {
      p.setPen(
          QPen(pass == 0 ? QColor(0, 0, 0, 90) : QColor(255, 255, 255, 150), pass == 0 ? 3 : 1));
      lines(xs, ys);
    }
    if (!tileXs.empty()) {
      for (int pass = 0; pass < 2; ++pass) {
        p.setPen(
            QPen(pass == 0 ? QColor(0, 0, 0, 160) : QColor(255, 255, 255, 230), pass == 0 ? 5 : 2));
        lines(tileXs, tileYs);
      }
    }
    if (thumbnailPanel_) {
      p.setPen(palette().color(QPalette::Text));
      p.drawText(
          QRectF(panel.left(), panel.top() - kPanelTitleBand, panel.width(), kPanelTitleBand - 2),
          Qt::AlignLeft | Qt::AlignBottom, isThumb ? tr("thumbnail") : tr("tiles"));
    }

    // The linked selection (yellow) and the hovered token (cyan), on both panels of a tiled
    // picture: a tile's token shows where it lies in the thumbnail and the other way round.
    p.setRenderHint(QPainter::Antialiasing);
    for (std::size_t k = 0; k < c_.cells.size(); ++k) {
      const bool selected = selected_ >= 0 && c_.visual[k] == selected_;
      const bool hovered = static_cast<int>(k) == hovered_;
      if (!selected && !hovered) continue;
      const PixelCell& cell = c_.cells[k];
      const QRectF r = pictureToPanel(cell, cell.x0, cell.y0, cell.x1, cell.y1, panel);
      const bool own = cell.thumbnail == isThumb;
      p.setPen(QPen(QColor(0, 0, 0), own ? 5 : 4));
      p.drawRect(r);
      QPen pen(selected ? QColor(255, 230, 60) : QColor(80, 230, 255), own ? 3 : 2);
      if (!own) pen.setStyle(Qt::DashLine);
      p.setPen(pen);
      p.drawRect(r);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
  }

  // Colour bar with its value labels, and the legend saying what the colours are.
  if (!c_.values.empty()) {
    ColorBarStyle style;
    // From the labels' start (the bar's right edge and the gap) to the canvas's edge, less a
    // pixel: the room was 4 px wider than that, and a long label ran off the canvas.
    style.labelWidth = rect().right() - colorBarRect().right() - style.gap - 1;
    p.setPen(palette().color(QPalette::Text));
    paintColorBar(p, colorBarRect(), scale_, scale_.ticks(5), style);
    const QRectF legend = legendRect();
    if (!legend.isEmpty())
      p.drawText(
          legend, Qt::AlignLeft | Qt::AlignVCenter,
          p.fontMetrics().elidedText(c_.legend, Qt::ElideMiddle, static_cast<int>(legend.width())));
  }
}

void PictureCanvas::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const int k = cellAt(e->position());
  if (k >= 0 && c_.visual[static_cast<std::size_t>(k)] >= 0)
    emit visualClicked(c_.visual[static_cast<std::size_t>(k)]);
}

void PictureCanvas::setHovered(int cell) {
  if (cell == hovered_) return;
  hovered_ = cell;
  update();
  emit hoverChanged(cell, describeCell(cell));
}

void PictureCanvas::mouseMoveEvent(QMouseEvent* e) {
  setHovered(cellAt(e->position()));
}

void PictureCanvas::leaveEvent(QEvent*) {
  setHovered(-1);
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

QString PictureCanvas::describeCell(int cell) const {
  if (cell < 0 || cell >= static_cast<int>(c_.cells.size())) return {};
  const PixelCell& p = c_.cells[static_cast<std::size_t>(cell)];
  QString text = tr("token %1 (visual %2) \xc2\xb7 row %3, col %4")
                     .arg(p.token)
                     .arg(c_.visual[static_cast<std::size_t>(cell)])
                     .arg(p.row)
                     .arg(p.col);
  if (p.thumbnail)
    text += tr(" \xc2\xb7 thumbnail");
  else if (p.tile >= 0)
    text += tr(" \xc2\xb7 tile %1").arg(p.tile);
  if (p.lastFrame > 0 || p.firstFrame > 0)
    text += p.lastFrame > p.firstFrame
                ? tr(" \xc2\xb7 frames %1\xe2\x80\x93%2").arg(p.firstFrame).arg(p.lastFrame)
                : tr(" \xc2\xb7 frame %1").arg(p.firstFrame);
  const double v = cellValue(cell);
  if (!std::isnan(v))
    text += QString::fromUtf8(" \xc2\xb7 ") + c_.valueName + QLatin1Char(' ') +
            QString::number(v, 'g', 6);
  text += QLatin1Char('\n') + tr("x %1\xe2\x80\x93%2, y %3\xe2\x80\x93%4 of %5 \xc3\x97 %6 px")
                                  .arg(pixelEdgeText(p.x0), pixelEdgeText(p.x1),
                                       pixelEdgeText(p.y0), pixelEdgeText(p.y1))
                                  .arg(p.width)
                                  .arg(p.height);
  return text;
}

QString PictureCanvas::describeAt(QPointF pos) const {
  return describeCell(cellAt(pos));
}

}  // namespace ropescope::ui
