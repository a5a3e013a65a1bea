#include "sound/sound_waveform.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ropescope/sound_display.h"
#include "style/color_scale.h"
#include "style/modality_colors.h"

namespace ropescope::ui {

void paintWaveform(QPainter& p, const QRectF& canvas, const SoundPicture& pic) {
  const QRectF plot = soundPlotRect(canvas);
  const QColor fg = soundForeground(pic.dark);
  p.fillRect(canvas, pic.dark ? QColor(23, 26, 33) : QColor(252, 252, 255));
  const double d = pic.duration;

  // Token spans: bands coloured by the overlay, or alternating shades without one.
  const bool overlay = !pic.overlay.empty() && pic.overlay.size() == pic.spans.size();
  const ColorScale scale = ColorScale::linear(pic.overlayMin, pic.overlayMax);
  for (std::size_t k = 0; k < pic.spans.size(); ++k) {
    const double x0 = xOfSeconds(plot, d, pic.spans[k].first);
    const double x1 = xOfSeconds(plot, d, pic.spans[k].second);
    QColor c;
    if (overlay) {
      c = scale.color(pic.overlay[k]);
      c.setAlphaF(0.55);
    } else {
      c = modalityColor(Modality::Audio);
      c.setAlphaF(k % 2 ? 0.12 : 0.24);
    }
    p.fillRect(QRectF(x0, plot.top(), std::max(1.0, x1 - x0), plot.height()), c);
  }

  // The envelope, one vertical stroke per pixel column (core's min/max per column).
  const double mid = plot.center().y();
  const double half = plot.height() / 2 * 0.92;
  p.setPen(QPen(fg, 1.0));
  if (!pic.clip.silent && !pic.clip.mono.empty() && d > 0) {
    const double clipWidth = plot.width() * std::min(1.0, pic.clip.seconds() / d);
    const int columns = std::max(1, static_cast<int>(std::lround(clipWidth)));
    const Envelope e = waveformEnvelope(pic.clip.mono, columns);
    for (int c = 0; c < columns; ++c) {
      const double x = plot.left() + c + 0.5;
      const double lo = std::clamp(static_cast<double>(e.low[c]), -1.0, 1.0);
      const double hi = std::clamp(static_cast<double>(e.high[c]), -1.0, 1.0);
      p.drawLine(QPointF(x, mid - hi * half), QPointF(x, mid - lo * half - 0.01));
    }
  } else {
    p.drawLine(QPointF(plot.left(), mid), QPointF(plot.right(), mid));
    // Without audio tokens there is no a<N> to speak of (the view says there is no audio).
    if (!pic.spans.empty())
      p.drawText(plot.adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignTop,
                 pic.clip.problem.isEmpty()
                     ? QObject::tr("silence: a plain a<N> has no sound, only its tokens' spans")
                     : QObject::tr("silence (%1)").arg(pic.clip.problem));
  }

  paintSelectionAndFrame(p, plot, pic, d);

  // The overlay's colour bar with its range.
  if (overlay) {
    const QRectF bar(plot.right() + 10, plot.top(), 12, plot.height());
    p.setPen(fg);
    ColorBarStyle style;
    style.tickMarks = false;
    style.gap = 3;
    // The labels' room ends at the canvas: with the default room and 3 digits, 3592 was drawn
    // as "3.59e+03" and cut to "3.59e+".
    style.labelWidth = canvas.right() - (bar.right() + style.gap) - 1;
    paintColorBar(p, bar, scale, scale.ticks(2), style);
  }
}

SoundWaveform::SoundWaveform(const SoundPicture* picture, QWidget* parent)
    : QWidget(parent), picture_(picture) {
  setObjectName(QStringLiteral("soundWaveform"));
  setMinimumSize(200, 80);
}

void SoundWaveform::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, false);
  paintWaveform(p, rect(), *picture_);
}

void SoundWaveform::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const QRectF plot = soundPlotRect(rect());
  if (!plot.contains(e->position())) return;
  emit clickedAt(secondsOfX(plot, picture_->duration, e->position().x()));
}

}  // namespace ropescope::ui
