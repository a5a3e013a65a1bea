// The Sound tab: one audio segment of the layout at a time, its waveform (or silence for a plain
// a<N>) and spectrogram, each audio token's time span, the selected text token's distance or
// positional bias to every audio token over the waveform, and the selected audio token, linked
// with the 3-D view (audioTokenClicked / setSelectedAudio).
#pragma once

#include <QWidget>

#include <map>
#include <string>
#include <vector>

#include "ropescope/sound_display.h"
#include "sound/sound_overlay.h"
#include "sound/sound_picture.h"

class QComboBox;
class QLabel;

namespace ropescope::ui {

class SceneModel;
class WhenShown;
class SoundSpectrogram;
class SoundWaveform;

class SoundView : public QWidget {
  Q_OBJECT

 public:
  explicit SoundView(SceneModel* model, QWidget* parent = nullptr);

  // Layout segment shown (an audio segment), -1 when the layout has none.
  int shownSegment() const { return segment_; }
  void showSegment(int segment);
  void setOverlay(SoundOverlay overlay);
  SoundOverlay overlay() const { return overlay_; }
  // Index among the audio tokens (PositionIds::audioIndices order), -1 for none. Showing a token
  // of another segment switches to that segment.
  void setSelectedAudio(long audioIndex);
  long selectedAudio() const { return selectedAudio_; }
  void setDark(bool dark);

  // What the canvases draw, and for tests: the audio-token index of each drawn span, the span's
  // rectangle in the waveform canvas, the overlay value of an audio token (NaN without one).
  const SoundPicture& picture() const { return picture_; }
  const std::vector<long>& spanAudio() const { return spanAudio_; }
  QRectF spanRect(long audioIndex) const;
  double overlayValue(long audioIndex) const;
  SoundWaveform* waveform() const { return waveform_; }
  SoundSpectrogram* spectrogramCanvas() const { return spectrogram_; }
  QString caption() const;
  // The spans of every audio token with the overlay values (the figure's data).
  const std::vector<AudioTokenSpan>& spans() const { return spans_; }
  const std::vector<double>& overlayValues() const { return values_; }

  // The whole tab as a figure: title, waveform above, spectrogram below.
  void paintFigure(QPainter& p, const QSizeF& size, bool title);

 signals:
  void audioTokenClicked(long audioIndex);

 private:
  void refresh();
  void refreshSegments();
  void refreshPicture();
  void clickedAt(double seconds);

  SceneModel* model_;
  WhenShown* shown_ = nullptr;  // model changes wait for a hidden view's next show
  QComboBox* segments_ = nullptr;
  QComboBox* overlayBox_ = nullptr;
  QLabel* captionLabel_ = nullptr;
  SoundWaveform* waveform_ = nullptr;
  SoundSpectrogram* spectrogram_ = nullptr;

  int segment_ = -1;
  SoundOverlay overlay_ = SoundOverlay::Distance;
  long selectedAudio_ = -1;
  bool dark_ = false;
  double secondsPerToken_ = 0.0;
  std::vector<AudioTokenSpan> spans_;  // every audio token
  std::vector<double> values_;         // overlay of every audio token (empty: none)
  std::vector<long> spanAudio_;        // audio index of each span of the shown segment
  SoundPicture picture_;
  // Read sound files by path (reading one is slow; edits elsewhere keep them).
  std::map<std::string, SoundClip> clips_;
};

}  // namespace ropescope::ui
