#include "sound/sound_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "model/when_shown.h"
#include "ropescope/metrics.h"
#include "sound/sound_spectrogram.h"
#include "sound/sound_waveform.h"
#include "style/color_scale.h"

namespace ropescope::ui {

namespace {

constexpr int kSpectrogramWindow = 512;
constexpr int kSpectrogramFrames = 4000;  // columns of the spectrogram image at most
constexpr double kSpectrogramRangeDb = 80.0;

QString number(double v) {
  return QString::number(v, 'g', 4);
}

}  // namespace

SoundView::SoundView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("soundView"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  segments_ = new QComboBox(this);
  segments_->setObjectName(QStringLiteral("soundSegment"));
  segments_->setToolTip(tr("Which audio segment of the layout to show"));
  overlayBox_ = new QComboBox(this);
  overlayBox_->setObjectName(QStringLiteral("soundOverlay"));
  overlayBox_->addItems({tr("spans only"), tr("distance"), tr("positional bias")});
  overlayBox_->setToolTip(
      tr("Colour each audio token's span by the selected text token's distance or RoPE "
         "positional bias to it"));
  bar->addWidget(segments_, 1);
  bar->addWidget(new QLabel(tr("Map"), this));
  bar->addWidget(overlayBox_);
  column->addLayout(bar);
  captionLabel_ = new QLabel(this);
  captionLabel_->setObjectName(QStringLiteral("soundCaption"));
  captionLabel_->setWordWrap(true);
  column->addWidget(captionLabel_);
  waveform_ = new SoundWaveform(&picture_, this);
  spectrogram_ = new SoundSpectrogram(&picture_, this);
  column->addWidget(waveform_, 3);
  column->addWidget(spectrogram_, 2);
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay_));
  }

  connect(segments_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) showSegment(segments_->itemData(i).toInt());
  });
  connect(overlayBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setOverlay(static_cast<SoundOverlay>(i)); });
  connect(waveform_, &SoundWaveform::clickedAt, this, &SoundView::clickedAt);
  connect(spectrogram_, &SoundSpectrogram::clickedAt, this, &SoundView::clickedAt);
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The segment list reads the layout only; the overlay the ids and the selection.
    if (parts.touches(ScenePart::Layout | ScenePart::ImageGrid)) refreshSegments();
    shown_->request();  // hidden (another tab): dirty until shown
  });
  connect(model_, &SceneModel::selectionChanged, shown_, &WhenShown::request);
  refreshSegments();
  refresh();
}

void SoundView::refreshSegments() {
  const Layout& layout = model_->validScene().layout;
  const QSignalBlocker block(segments_);
  segments_->clear();
  int keep = -1;
  for (int s = 0; s < static_cast<int>(layout.segments.size()); ++s) {
    if (!layout.segments[s].isAudio()) continue;
    segments_->addItem(audioSegmentName(layout, static_cast<std::size_t>(s)), s);
    if (s == segment_ || keep < 0) keep = s;
  }
  segment_ = keep;
  segments_->setCurrentIndex(segments_->findData(segment_));
  segments_->setEnabled(segments_->count() > 1);
  // Forget files no longer in the layout.
  for (auto it = clips_.begin(); it != clips_.end();) {
    const bool used = std::any_of(layout.segments.begin(), layout.segments.end(),
                                  [&](const Segment& s) { return s.source.path == it->first; });
    it = used ? std::next(it) : clips_.erase(it);
  }
}

void SoundView::showSegment(int segment) {
  const Layout& layout = model_->validScene().layout;
  if (segment < 0 || segment >= static_cast<int>(layout.segments.size()) ||
      !layout.segments[segment].isAudio())
    return;
  if (segment == segment_) return;
  segment_ = segment;
  {
    const QSignalBlocker block(segments_);
    segments_->setCurrentIndex(segments_->findData(segment));
  }
  refreshPicture();
}

void SoundView::setOverlay(SoundOverlay overlay) {
  overlay_ = overlay;
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay));
  }
  refresh();
}

void SoundView::setSelectedAudio(long audioIndex) {
  if (audioIndex < 0 || audioIndex >= static_cast<long>(spans_.size())) audioIndex = -1;
  selectedAudio_ = audioIndex;
  if (audioIndex >= 0 && spans_[static_cast<std::size_t>(audioIndex)].segment != segment_) {
    segment_ = spans_[static_cast<std::size_t>(audioIndex)].segment;
    const QSignalBlocker block(segments_);
    segments_->setCurrentIndex(segments_->findData(segment_));
  }
  refreshPicture();
}

void SoundView::setDark(bool dark) {
  dark_ = dark;
  picture_.dark = dark;
  waveform_->update();
  spectrogram_->update();
}

void SoundView::clickedAt(double seconds) {
  const long span = spanAt(spans_, segment_, seconds);
  if (span < 0) return;
  setSelectedAudio(span);
  emit audioTokenClicked(span);
}

// The spans and overlay values of every audio token: core's (audioTokenSpans, distancesToAudio,
// biasToAudio) from the selected text token; only normalised here for the colours.
void SoundView::refresh() {
  const SceneMetrics& m = model_->metrics();
  secondsPerToken_ = soundSecondsPerToken(model_->validScene().design);
  spans_ = audioTokenSpans(m.ids, secondsPerToken_);
  values_.clear();
  if (m.selectedToken >= 0 && !spans_.empty()) {
    const auto token = static_cast<std::size_t>(m.selectedToken);
    if (overlay_ == SoundOverlay::Distance) values_ = distancesToAudio(m.ids, token);
    if (overlay_ == SoundOverlay::Bias && m.pairs.size() > 0)
      values_ = biasToAudio(m.ids, m.pairs, token);
  }
  if (selectedAudio_ >= static_cast<long>(spans_.size())) selectedAudio_ = -1;
  refreshPicture();
}

void SoundView::refreshPicture() {
  const Layout& layout = model_->validScene().layout;
  const bool shown = segment_ >= 0 && segment_ < static_cast<int>(layout.segments.size()) &&
                     layout.segments[segment_].isAudio();
  const bool dark = picture_.dark;
  picture_ = SoundPicture{};
  picture_.dark = dark;
  spanAudio_.clear();
  // Without audio the message alone, in the tab's middle: the plots' empty axes under it were
  // a sound's frame with nothing in it.
  waveform_->setVisible(shown);
  spectrogram_->setVisible(shown);
  captionLabel_->setAlignment(shown ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignCenter);
  if (!shown) {
    segment_ = -1;
    captionLabel_->setText(
        tr("No audio in the layout: add an a<N> segment, File \xe2\x86\x92 Add sound\xe2\x80\xa6, "
           "or drop sound files on the window."));
    return;
  }
  const Segment& seg = layout.segments[segment_];
  // The samples: a file read once per path, silence for a plain a<N>.
  if (seg.source.isFile()) {
    auto it = clips_.find(seg.source.path);
    if (it == clips_.end())
      it = clips_.emplace(seg.source.path, soundOfSegment(seg, secondsPerToken_)).first;
    picture_.clip = it->second;
  } else {
    picture_.clip = soundOfSegment(seg, secondsPerToken_);
  }

  double last = 0.0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const bool overlay = values_.size() == spans_.size() && !values_.empty();
  for (std::size_t a = 0; a < spans_.size(); ++a) {
    if (spans_[a].segment != segment_) continue;
    spanAudio_.push_back(static_cast<long>(a));
    picture_.spans.emplace_back(spans_[a].start, spans_[a].end);
    last = std::max(last, spans_[a].end);
    if (static_cast<long>(a) == selectedAudio_)
      picture_.selected = static_cast<long>(picture_.spans.size()) - 1;
    if (overlay) {
      picture_.overlay.push_back(values_[a]);
      lo = std::min(lo, values_[a]);
      hi = std::max(hi, values_[a]);
    }
  }
  if (!picture_.overlay.empty()) {
    picture_.overlayMin = lo;
    picture_.overlayMax = hi;
    picture_.overlayName = overlay_ == SoundOverlay::Bias ? tr("positional bias") : tr("distance");
  }
  picture_.duration = std::max(last, picture_.clip.seconds());

  // The spectrogram image: frames across, low frequencies at the bottom.
  if (!picture_.clip.silent && !picture_.clip.mono.empty()) {
    const Spectrogram s = spectrogram(
        picture_.clip.mono, picture_.clip.sampleRate, kSpectrogramWindow,
        spectrogramHop(picture_.clip.mono.size(), kSpectrogramWindow, kSpectrogramFrames));
    const std::vector<float> levels = spectrogramLevels(s, kSpectrogramRangeDb);
    const ColorScale scale;  // levels are 0 (the range's floor) .. 1 (the loudest)
    QImage image(s.frames, s.bins, QImage::Format_RGB32);
    for (int f = 0; f < s.frames; ++f)
      for (int b = 0; b < s.bins; ++b)
        image.setPixel(f, s.bins - 1 - b,
                       scale.color(levels[static_cast<std::size_t>(f) * s.bins + b]).rgb());
    picture_.spectrogram = image;
    picture_.maxHertz = picture_.clip.sampleRate / 2.0;
  }

  QString text = tr("%1: %2 tokens, %3 s per token, %4 s shown")
                     .arg(audioSegmentName(layout, static_cast<std::size_t>(segment_)))
                     .arg(picture_.spans.size())
                     .arg(number(secondsPerToken_))
                     .arg(number(picture_.duration));
  if (!picture_.clip.silent) text += tr(" (%1 Hz)").arg(picture_.clip.sampleRate);
  if (!picture_.overlay.empty())
    text += tr("  \xc2\xb7  %1 from text token %2: %3 \xe2\x80\x93 %4")
                .arg(picture_.overlayName)
                .arg(model_->validScene().selectedText)
                .arg(number(picture_.overlayMin), number(picture_.overlayMax));
  else if (overlay_ != SoundOverlay::None && model_->metrics().selectedToken < 0)
    text += tr("  \xc2\xb7  no text token selected");
  if (picture_.selected >= 0)
    text += tr("  \xc2\xb7  selected: audio token %1").arg(selectedAudio_);
  captionLabel_->setText(text);
  waveform_->update();
  spectrogram_->update();
}

QString SoundView::caption() const {
  return captionLabel_->text();
}

QRectF SoundView::spanRect(long audioIndex) const {
  const auto it = std::find(spanAudio_.begin(), spanAudio_.end(), audioIndex);
  if (it == spanAudio_.end()) return {};
  const auto& s = picture_.spans[static_cast<std::size_t>(it - spanAudio_.begin())];
  const QRectF plot = soundPlotRect(waveform_->rect());
  const double x0 = xOfSeconds(plot, picture_.duration, s.first);
  const double x1 = xOfSeconds(plot, picture_.duration, s.second);
  return QRectF(x0, plot.top(), x1 - x0, plot.height());
}

double SoundView::overlayValue(long audioIndex) const {
  if (audioIndex < 0 || audioIndex >= static_cast<long>(values_.size()))
    return std::numeric_limits<double>::quiet_NaN();
  return values_[static_cast<std::size_t>(audioIndex)];
}

void SoundView::paintFigure(QPainter& p, const QSizeF& size, bool title) {
  QRectF area(QPointF(0, 0), size);
  if (title) {
    const QRectF head(8, 4, size.width() - 16, 40);
    p.setPen(soundForeground(picture_.dark));
    p.drawText(head, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, caption());
    area.setTop(head.bottom() + 4);
  }
  const double split = area.top() + area.height() * 0.6;
  paintWaveform(p, QRectF(area.left(), area.top(), area.width(), split - area.top()), picture_);
  paintSpectrogram(p, QRectF(area.left(), split, area.width(), area.bottom() - split), picture_);
}

}  // namespace ropescope::ui
