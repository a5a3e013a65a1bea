// The Sound tab's waveform canvas: the envelope of the samples (min/max per pixel column), each
// audio token's time span as a band (coloured by the overlay from the selected text token) and
// the selected token's span outlined. Clicking a span reports the token.
#pragma once

#include <QWidget>

#include <functional>

#include "sound/sound_picture.h"

class QPainter;

namespace ropescope::ui {

// Draws `pic` into `canvas` (widget or figure coordinates).
void paintWaveform(QPainter& p, const QRectF& canvas, const SoundPicture& pic);

class SoundWaveform : public QWidget {
  Q_OBJECT

 public:
  explicit SoundWaveform(const SoundPicture* picture, QWidget* parent = nullptr);

 signals:
  // Seconds under a left click inside the plot.
  void clickedAt(double seconds);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  const SoundPicture* picture_;
};

}  // namespace ropescope::ui
