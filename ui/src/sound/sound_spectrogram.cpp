#include "sound/sound_spectrogram.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

#include "style/color_scale.h"

namespace ropescope::ui {

void paintSpectrogram(QPainter& p, const QRectF& canvas, const SoundPicture& pic) {
  const QRectF plot = soundPlotRect(canvas);
  p.fillRect(canvas, pic.dark ? QColor(23, 26, 33) : QColor(252, 252, 255));
  const double d = pic.duration;
  if (!pic.spectrogram.isNull() && !pic.clip.silent && d > 0) {
    const double w = plot.width() * std::min(1.0, pic.clip.seconds() / d);
    p.setRenderHint(QPainter::SmoothPixmapTransform, true);
    p.drawImage(QRectF(plot.left(), plot.top(), w, plot.height()), pic.spectrogram);
  } else {
    // No sound is no value, not the quietest level.
    p.fillRect(plot, ColorScale::noValueColor());
    p.setPen(QColor(230, 230, 230));
    // Only about a segment there is (without audio tokens the view says there is no audio).
    if (!pic.spans.empty())
      p.drawText(plot.adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignTop,
                 QObject::tr("no spectrogram: the segment has no sound"));
  }
  // Span boundaries as ticks along the bottom edge, the selected span outlined.
  p.setPen(QPen(QColor(255, 255, 255, 150), 1.0));
  for (const auto& s : pic.spans) {
    const double x = xOfSeconds(plot, d, s.first);
    p.drawLine(QPointF(x, plot.bottom() - 6), QPointF(x, plot.bottom()));
  }
  paintSelectionAndFrame(p, plot, pic, d);
  // The frequency range at the right.
  if (pic.maxHertz > 0) {
    const QFontMetricsF fm(p.font());
    p.drawText(QPointF(plot.right() + 6, plot.top() + fm.ascent()),
               QStringLiteral("%1 kHz").arg(pic.maxHertz / 1000.0, 0, 'g', 3));
    p.drawText(QPointF(plot.right() + 6, plot.bottom()), QStringLiteral("0 Hz"));
  }
}

SoundSpectrogram::SoundSpectrogram(const SoundPicture* picture, QWidget* parent)
    : QWidget(parent), picture_(picture) {
  setObjectName(QStringLiteral("soundSpectrogram"));
  setMinimumSize(200, 60);
}

void SoundSpectrogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintSpectrogram(p, rect(), *picture_);
}

void SoundSpectrogram::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const QRectF plot = soundPlotRect(rect());
  if (!plot.contains(e->position())) return;
  emit clickedAt(secondsOfX(plot, picture_->duration, e->position().x()));
}

}  // namespace ropescope::ui
