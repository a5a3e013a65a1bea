#include "picture/picture_view.h"

#include "ropescope/token_groups.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "model/when_shown.h"
#include "picture/picture_canvas.h"
#include "picture/picture_source.h"

namespace ropescope::ui {

PictureView::PictureView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("pictureView"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  segments_ = new QComboBox(this);
  segments_->setObjectName(QStringLiteral("pictureSegment"));
  segments_->setToolTip(tr("Which picture of the layout to show"));
  overlayBox_ = new QComboBox(this);
  overlayBox_->setObjectName(QStringLiteral("pictureOverlay"));
  overlayBox_->addItems({tr("grid only"), tr("distance"), tr("positional bias")});
  overlayBox_->setToolTip(
      tr("Heat map of the selected text token's distance or RoPE positional bias to each patch"));
  bar->addWidget(segments_, 1);
  bar->addWidget(new QLabel(tr("Map"), this));
  bar->addWidget(overlayBox_);
  column->addLayout(bar);
  captionLabel_ = new QLabel(this);
  captionLabel_->setWordWrap(true);
  column->addWidget(captionLabel_);
  canvas_ = new PictureCanvas(this);
  column->addWidget(canvas_, 1);
  connect(canvas_, &PictureCanvas::visualClicked, model_, &SceneModel::setSelectedVisual);
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay_));
  }

  connect(segments_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) showSegment(segments_->itemData(i).toInt());
  });
  connect(overlayBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setOverlay(static_cast<PictureOverlay>(i)); });
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

void PictureView::refreshSegments() {
  const Layout& layout = model_->validScene().layout;
  const QSignalBlocker block(segments_);
  segments_->clear();
  int keep = -1;
  for (int s = 0; s < static_cast<int>(layout.segments.size()); ++s) {
    if (!layout.segments[s].source.isPicture()) continue;
    segments_->addItem(visualSegmentName(layout, static_cast<std::size_t>(s)), s);
    if (s == segment_ || keep < 0) keep = s;
  }
  segment_ = keep;
  segments_->setCurrentIndex(segments_->findData(segment_));
  segments_->setEnabled(segments_->count() > 1);
}

void PictureView::showSegment(int segment) {
  const Layout& layout = model_->validScene().layout;
  if (segment < 0 || segment >= static_cast<int>(layout.segments.size()) ||
      !layout.segments[segment].source.isPicture())
    return;
  segment_ = segment;
  {
    const QSignalBlocker block(segments_);
    segments_->setCurrentIndex(segments_->findData(segment));
  }
  refresh();
}

void PictureView::setOverlay(PictureOverlay overlay) {
  overlay_ = overlay;
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay));
  }
  refresh();
}

void PictureView::setUnpickedTemporal(int temporal) {
  unpickedTemporal_ = temporal;
  refresh();
}

void PictureView::refresh() {
  const SceneMetrics& m = model_->metrics();
  const Layout& layout = model_->validScene().layout;
  PictureCanvas::Content c;
  error_.clear();
  canvas_->setSelectedVisual(model_->selectedVisual());
  if (segment_ < 0 || segment_ >= static_cast<int>(layout.segments.size()) ||
      !layout.segments[segment_].source.isPicture()) {
    segment_ = -1;
    c.emptyText =
        tr("No picture in the layout: File \xe2\x86\x92 Add image\xe2\x80\xa6 (Ctrl+I), or "
           "drop picture files on the window.");
    // The canvas says it in its middle; the caption line under it would say it a second time.
    captionLabel_->setText(c.emptyText);
    captionLabel_->hide();
    canvas_->setContent(std::move(c));
    return;
  }
  const Segment& seg = layout.segments[segment_];
  c.rows = seg.rows;
  c.cols = seg.cols;

  // The selected visual token picks the temporal patch of a video.
  temporal_ = seg.kind == SegmentKind::Video ? unpickedTemporal_ : 0;
  const long selected = model_->selectedVisual();
  std::vector<long> visualOfToken(m.ids.size(), -1);
  long v = 0;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (inGroup(m.ids.tokens[i].modality, TokenGroup::Visual)) visualOfToken[i] = v++;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (visualOfToken[i] == selected && selected >= 0 && m.ids.tokens[i].segment == segment_)
      temporal_ = m.ids.tokens[i].frame;

  c.cellVisual.assign(static_cast<std::size_t>(c.rows) * c.cols, -1);
  for (std::size_t i = 0; i < m.ids.size(); ++i) {
    const TokenInfo& t = m.ids.tokens[i];
    if (t.segment != segment_ || t.frame != temporal_ || t.modality == Modality::Text) continue;
    if (t.row < c.rows && t.col < c.cols)
      c.cellVisual[static_cast<std::size_t>(t.row) * c.cols + t.col] = visualOfToken[i];
  }

  const std::vector<double>* source = overlay_ == PictureOverlay::Distance ? &m.selectedDistance
                                      : overlay_ == PictureOverlay::Bias   ? &m.selectedBias
                                                                           : nullptr;
  if (source && !source->empty()) {
    c.values.assign(c.cellVisual.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < c.cellVisual.size(); ++k) {
      const long vi = c.cellVisual[k];
      if (vi >= 0 && vi < static_cast<long>(source->size())) c.values[k] = (*source)[vi];
    }
    c.valueName = overlay_ == PictureOverlay::Distance ? tr("distance") : tr("positional bias");
  }

  const int frame = seg.kind == SegmentKind::Video ? firstFrameOfPair(temporal_) : 0;
  c.picture = pictureFrame(seg.source, frame, &error_);
  canvas_->setContent(std::move(c));
  captionLabel_->setText(caption());
  captionLabel_->show();
}

QString PictureView::caption() const {
  if (segment_ < 0) return captionLabel_->text();
  const Segment& seg = model_->validScene().layout.segments[segment_];
  QString text = tr("%1 \xe2\x86\x92 resized %2 \xe2\x86\x92 %3")
                     .arg(pixelSizeText(seg.source.width, seg.source.height),
                          pixelSizeText(seg.source.resizedWidth, seg.source.resizedHeight),
                          gridText(canvas_->rows(), canvas_->cols()));
  if (seg.kind == SegmentKind::Video)
    text += QStringLiteral(" \xc2\xb7 ") + temporalPatchText(temporal_, seg.frames) +
            tr(" (frame %1, the first of its pair)").arg(firstFrameOfPair(temporal_));
  if (canvas_->hasValues()) {
    if (canvas_->isFlat()) text += tr(" \xc2\xb7 the same for every patch");
    text += overlay_ == PictureOverlay::Distance
                ? tr(" \xc2\xb7 distance from text token %1").arg(model_->validScene().selectedText)
                : tr(" \xc2\xb7 positional bias from text token %1")
                      .arg(model_->validScene().selectedText);
  }
  if (!error_.isEmpty()) text += QLatin1Char('\n') + error_;
  return text;
}

int PictureView::rows() const {
  return canvas_->rows();
}
int PictureView::cols() const {
  return canvas_->cols();
}
long PictureView::visualIndex(int row, int col) const {
  return canvas_->visualIndex(row, col);
}
double PictureView::overlayValue(int row, int col) const {
  return canvas_->value(row, col);
}
QColor PictureView::overlayColor(int row, int col) const {
  return canvas_->color(row, col);
}
bool PictureView::overlayIsFlat() const {
  return canvas_->isFlat();
}
QRectF PictureView::cellRect(int row, int col) const {
  return canvas_->cellRect(row, col);
}

}  // namespace ropescope::ui
