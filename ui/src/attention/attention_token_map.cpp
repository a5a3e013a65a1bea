#include "attention/attention_token_map.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "attention/token_map_canvas.h"
#include "attention/token_name.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "picture/picture_source.h"
#include "style/color_scale.h"

namespace ropescope::ui {

AttentionTokenMap::AttentionTokenMap(SceneModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
  segmentBox_ = new QComboBox;
  segmentBox_->setToolTip(tr("Visual block the selected text token's row is shown over"));
  temporalSpin_ = new QSpinBox;
  temporalSpin_->setPrefix(tr("t "));
  temporalSpin_->setToolTip(tr("temporal patch of a video, or tile of a tiled picture"));
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  canvas_ = new TokenMapCanvas;
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  auto* top = new QHBoxLayout;
  top->addWidget(segmentBox_, 1);
  top->addWidget(temporalSpin_);
  column->addLayout(top);
  column->addWidget(caption_);
  column->addWidget(canvas_, 1);

  connect(segmentBox_, &QComboBox::currentIndexChanged, this, [this] {
    segment_ = segmentBox_->currentData().toInt();
    pictureStale_ = true;
    rebuild();
  });
  connect(temporalSpin_, &QSpinBox::valueChanged, this, [this] {
    pictureStale_ = true;
    rebuild();
  });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    if (parts.touches(ScenePart::Layout | ScenePart::ImageGrid)) refreshSegments();
  });
  refreshSegments();
}

void AttentionTokenMap::setResult(std::shared_ptr<const AttentionResult> result,
                                  std::shared_ptr<const std::vector<TokenInfo>> tokens,
                                  bool logScale) {
  result_ = std::move(result);
  tokens_ = std::move(tokens);
  logScale_ = logScale;
  rebuild();
}

void AttentionTokenMap::setVisualSegment(int segment) {
  const int i = segmentBox_->findData(segment);
  if (i >= 0) segmentBox_->setCurrentIndex(i);
}

void AttentionTokenMap::refreshSegments() {
  const Layout& layout = model_->validScene().layout;
  const int keep = segment_;
  QSignalBlocker block(segmentBox_);
  segmentBox_->clear();
  for (std::size_t s = 0; s < layout.segments.size(); ++s) {
    const Segment& seg = layout.segments[s];
    if (!seg.isVisual()) continue;
    const QString name =
        visualSegmentName(layout, s) + QStringLiteral(", ") + gridText(seg.rows, seg.cols);
    segmentBox_->addItem(name, static_cast<int>(s));
  }
  const int i = segmentBox_->findData(keep);
  segmentBox_->setCurrentIndex(i >= 0 ? i : 0);
  // The same index may now be another block (or the same one from another file): decode again
  // (picture_source caches the decoded frames, so this is cheap).
  pictureStale_ = true;
  segment_ = segmentBox_->currentData().isValid() ? segmentBox_->currentData().toInt() : -1;
  // A video's temporal patches, or a tiled picture's tiles (its frames, the thumbnail last).
  const bool video = segment_ >= 0 && layout.segments[segment_].kind == SegmentKind::Video;
  const bool tiled = segment_ >= 0 && layout.segments[segment_].tiles.tiled();
  temporalSpin_->setVisible(video || tiled);
  temporalSpin_->setPrefix(tiled ? tr("tile ") : tr("t "));
  temporalSpin_->setRange(0, video || tiled ? layout.segments[segment_].frames - 1 : 0);
}

void AttentionTokenMap::rebuild() {
  token_ = -1;
  bool hidden = false;
  ColorScale scale;
  const std::vector<TokenInfo> none;
  const std::vector<TokenInfo>& tokens = tokens_ ? *tokens_ : none;
  const AttentionResult* r = result_.get();
  if (r && segment_ >= 0 && !r->textRow.empty() &&
      segment_ < static_cast<int>(r->request.scene.layout.segments.size()) &&
      r->request.scene.layout.segments[segment_].isVisual()) {
    const Segment& seg = r->request.scene.layout.segments[segment_];
    const int rows = seg.rows, cols = seg.cols;
    token_ = r->request.textToken;
    const bool frames = seg.kind == SegmentKind::Video || seg.tiles.tiled();
    const int frame = frames ? temporalSpin_->value() : 0;
    std::vector<double> values(std::size_t(rows) * cols, std::numeric_limits<double>::quiet_NaN());
    // The row's values placed on the block's grid by each token's own cell.
    for (std::size_t i = 0; i < tokens.size() && i < r->textRow.size(); ++i) {
      const TokenInfo& t = tokens[i];
      if (t.segment != segment_ || t.modality == Modality::Text) continue;
      if (t.frame != frame && frames) continue;
      if (t.row < 0 || t.row >= rows || t.col < 0 || t.col >= cols) continue;
      values[std::size_t(t.row) * cols + t.col] = r->textRow[i];
    }
    ValueRange range;
    for (double v : values) range.add(v);
    scale = ColorScale::fitting(range, logScale_);
    hidden = r->request.causal && token_ >= 0 && !(range.any && range.hi > 0);
    canvas_->setMap(rows, cols, std::move(values), scale, hidden);
    if (pictureStale_) {
      canvas_->setPicture(seg.source.isPicture()
                              ? resizedPictureFrame(seg.source, firstFrameOfPair(frame))
                              : QImage());
      pictureStale_ = false;
    }
  } else {
    canvas_->clear();
  }
  if (token_ >= 0 && hidden) {
    caption_->setText(tr("The query, %1, comes before this block: causal masking hides it all")
                          .arg(attentionTokenName(tokens, std::size_t(token_))));
  } else if (token_ >= 0) {
    const QString what = r->request.value == AttentionValue::Softmax ? tr("softmax") : tr("logits");
    caption_->setText(tr("%1 of %2 over this block: %3 \xe2\x80\x93 %4")
                          .arg(what, attentionTokenName(tokens, std::size_t(token_)))
                          .arg(QString::number(scale.lo(), 'g', 4))
                          .arg(QString::number(scale.hi(), 'g', 4)));
  } else {
    caption_->setText(segmentBox_->count() == 0
                          ? tr("No visual block in the layout")
                          : tr("Click a text query's row to see its map over the block"));
  }
}

}  // namespace ropescope::ui
