// The Sound tab's spectrogram canvas: the STFT's levels (core sound_display) in viridis, time
// across, frequency up, with the audio tokens' span boundaries under it and the selected token's
// span outlined. Clicking reports the time under the mouse.
#pragma once

#include <QWidget>

#include "sound/sound_picture.h"

class QPainter;

namespace ropescope::ui {

void paintSpectrogram(QPainter& p, const QRectF& canvas, const SoundPicture& pic);

class SoundSpectrogram : public QWidget {
  Q_OBJECT

 public:
  explicit SoundSpectrogram(const SoundPicture* picture, QWidget* parent = nullptr);

 signals:
  void clickedAt(double seconds);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  const SoundPicture* picture_;
};

}  // namespace ropescope::ui
