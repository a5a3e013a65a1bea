#include "attention/attention_picture.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPalette>

#include <algorithm>

#include "figures/figure_style.h"

namespace ropescope::ui {

namespace {

// Screen: the title line on top, the map below it at the left, the bar and its labels right.
constexpr double kScreenMargin = 8, kScreenTitle = 18, kScreenBar = 16, kScreenBarLabels = 72;
// Publication: room for the query axis left, the key axis below and the bar with its title right.
constexpr double kPaperLeft = 46, kPaperBottom = 40, kPaperBarMargin = 92, kPaperBar = 14;
constexpr double kBarGap = 12;

}  // namespace

HeatmapLook HeatmapLook::screen(const QPalette& palette) {
  HeatmapLook look;
  const QColor base = palette.color(QPalette::Base);
  look.kind = base.lightnessF() < 0.5 ? Kind::ScreenDark : Kind::ScreenLight;
  look.background = base;
  look.foreground = palette.color(QPalette::Text);
  return look;
}

HeatmapLook HeatmapLook::publication() {
  HeatmapLook look;
  look.kind = Kind::Publication;
  look.background = Qt::white;
  look.foreground = figure::foreground();
  return look;
}

AttentionLayout attentionLayout(QSizeF size, const HeatmapLook& look, bool title) {
  AttentionLayout l;
  if (look.isPublication()) {
    const double band = title ? 26.0 : 6.0;
    const double avail =
        std::min(size.width() - kPaperLeft - kPaperBarMargin, size.height() - band - kPaperBottom);
    const double side = std::max(10.0, avail);
    l.map = QRectF(kPaperLeft + (size.width() - kPaperLeft - kPaperBarMargin - side) / 2, band + 4,
                   side, side);
    l.bar = QRectF(l.map.right() + kBarGap, l.map.top(), kPaperBar, l.map.height());
  } else {
    const int w = static_cast<int>(size.width() - 2 * kScreenMargin - kScreenBar -
                                   kScreenBarLabels - kBarGap);
    const int h = static_cast<int>(size.height() - 2 * kScreenMargin - kScreenTitle);
    const double side = std::max(16, std::min(w, h));
    l.map = QRectF(kScreenMargin, kScreenMargin + kScreenTitle, side, side);
    l.bar = QRectF(l.map.right() + kBarGap, l.map.top(), kScreenBar, l.map.height());
  }
  return l;
}

void paintAttentionPicture(QPainter& p, QSizeF size, const AttentionPicture& pic,
                           const HeatmapLook& look) {
  const bool paper = look.isPublication();
  const AttentionLayout l = attentionLayout(size, look, !pic.title.isEmpty());
  const QRectF r = l.map;
  p.fillRect(QRectF(QPointF(0, 0), size), look.background);
  p.setPen(look.foreground);
  if (paper && !pic.title.isEmpty()) {
    figure::drawFittedText(p, QRectF(4, 0, size.width() - 8, r.top() - 4), figure::Text::Title,
                           pic.title);
  }

  // Nearest-neighbour: one cell is one flat colour, as the value it stands for.
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(r, pic.cells, pic.source.isNull() ? QRectF(pic.cells.rect()) : pic.source);
  if (paper) {
    QPen frame(look.foreground);
    frame.setWidthF(0.75);
    p.setPen(frame);
    p.drawRect(r);
  } else {
    p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5));
  }
  // Segment boundaries as ticks outside the map, so the text / picture blocks can be read off
  // without covering any value: left, and below (paper) or above (screen, under the title).
  for (double f : pic.edges) {
    const double x = r.left() + f * r.width(), y = r.top() + f * r.height();
    if (paper) {
      p.drawLine(QPointF(x, r.bottom() + 1), QPointF(x, r.bottom() + 6));
      p.drawLine(QPointF(r.left() - 6, y), QPointF(r.left() - 1, y));
    } else {
      p.drawLine(QPointF(x, r.top() - 7), QPointF(x, r.top() - 1));
      p.drawLine(QPointF(r.left() - 7, y), QPointF(r.left() - 1, y));
    }
  }
  if (paper) {
    p.setFont(figure::font(figure::Text::AxisTitle));
    if (!pic.keyTitle.isEmpty())
      p.drawText(QRectF(r.left(), r.bottom() + 8, r.width(), 20), Qt::AlignCenter, pic.keyTitle);
    if (!pic.queryTitle.isEmpty()) {
      p.save();
      p.translate(r.left() - 10, r.center().y());
      p.rotate(-90);
      p.drawText(QRectF(-r.height() / 2, -22, r.height(), 20), Qt::AlignCenter, pic.queryTitle);
      p.restore();
    }
  } else if (!pic.title.isEmpty()) {
    p.drawText(QRectF(kScreenMargin, 0, size.width() - kScreenMargin, kScreenTitle),
               Qt::AlignLeft | Qt::AlignVCenter, pic.title);
  }

  const QRectF bar = l.bar;
  if (paper) p.setFont(figure::font(figure::Text::Label));
  ColorBarStyle style;
  style.digits = pic.digits;
  style.labelWidth = paper ? kPaperBarMargin - 32 : kScreenBarLabels - 6;
  paintColorBar(p, bar, pic.scale, pic.ticks, style);
  if (pic.maskedSwatch) {
    p.fillRect(QRectF(bar.left(), bar.bottom() + 8, bar.width(), 10), ColorScale::noValueColor());
    p.drawText(QPointF(bar.right() + 6, bar.bottom() + 17),
               QCoreApplication::translate("AttentionPicture", "masked"));
  }
  if (paper && !pic.barTitle.isEmpty()) {
    p.save();
    p.translate(bar.right() + kPaperBarMargin - 22, bar.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-bar.height() / 2, -9, bar.height(), 18), Qt::AlignCenter, pic.barTitle);
    p.restore();
  }
}

}  // namespace ropescope::ui
