#include "picture/picture_view.h"

#include "ropescope/token_groups.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "model/when_shown.h"
#include "picture/picture_source.h"
#include "style/color_scale.h"

namespace ropescope::ui {

namespace {

constexpr double kOverlayAlpha = 0.55;  // the picture stays readable under the heat
constexpr int kBarWidth = 16;
constexpr int kBarMargin = 74;  // room for the bar and its value labels

// The canvas only forwards painting and input to the view that owns the state.
class PictureCanvas : public QWidget {
 public:
  explicit PictureCanvas(PictureView* view) : QWidget(view), view_(view) {
    setMinimumSize(240, 180);
    setMouseTracking(true);
    setObjectName(QStringLiteral("pictureCanvas"));
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    view_->paintCanvas(p);
  }
  void mousePressEvent(QMouseEvent* e) override {
    if (e->button() == Qt::LeftButton) view_->clickCanvas(e->position());
  }
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(e);
      const QString text = view_->describeAt(help->pos());
      if (text.isEmpty()) {
        QToolTip::hideText();
      } else {
        QToolTip::showText(help->globalPos(), text, this);
      }
      return true;
    }
    return QWidget::event(e);
  }

 private:
  PictureView* view_;
};

}  // namespace

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

// Maps the shown picture's cells to visual tokens and their values; the values are the core's
// (SceneMetrics::selectedDistance / selectedBias), only normalised here for the colours.
void PictureView::refresh() {
  const SceneMetrics& m = model_->metrics();
  const Layout& layout = model_->validScene().layout;
  rows_ = cols_ = -1;
  cellVisual_.clear();
  values_.clear();
  picture_ = QImage();
  error_.clear();
  if (segment_ < 0 || segment_ >= static_cast<int>(layout.segments.size()) ||
      !layout.segments[segment_].source.isPicture()) {
    segment_ = -1;
    captionLabel_->setText(
        tr("No picture in the layout: File \xe2\x86\x92 Add image\xe2\x80\xa6 (Ctrl+I), or drop "
           "picture files on the window."));
    canvas_->update();
    return;
  }
  const Segment& seg = layout.segments[segment_];
  rows_ = seg.rows;
  cols_ = seg.cols;

  // The selected visual token picks the temporal patch of a video.
  temporal_ = 0;
  const long selected = model_->selectedVisual();
  std::vector<long> visualOfToken(m.ids.size(), -1);
  long v = 0;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (inGroup(m.ids.tokens[i].modality, TokenGroup::Visual)) visualOfToken[i] = v++;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (visualOfToken[i] == selected && selected >= 0 && m.ids.tokens[i].segment == segment_)
      temporal_ = m.ids.tokens[i].frame;

  cellVisual_.assign(static_cast<std::size_t>(rows_) * cols_, -1);
  for (std::size_t i = 0; i < m.ids.size(); ++i) {
    const TokenInfo& t = m.ids.tokens[i];
    if (t.segment != segment_ || t.frame != temporal_ || t.modality == Modality::Text) continue;
    if (t.row < rows_ && t.col < cols_)
      cellVisual_[static_cast<std::size_t>(t.row) * cols_ + t.col] = visualOfToken[i];
  }

  const std::vector<double>* source = overlay_ == PictureOverlay::Distance ? &m.selectedDistance
                                      : overlay_ == PictureOverlay::Bias   ? &m.selectedBias
                                                                           : nullptr;
  if (source && !source->empty()) {
    values_.assign(cellVisual_.size(), std::numeric_limits<double>::quiet_NaN());
    min_ = std::numeric_limits<double>::infinity();
    max_ = -min_;
    for (std::size_t k = 0; k < cellVisual_.size(); ++k) {
      const long vi = cellVisual_[k];
      if (vi < 0 || vi >= static_cast<long>(source->size())) continue;
      values_[k] = (*source)[vi];
      min_ = std::min(min_, values_[k]);
      max_ = std::max(max_, values_[k]);
    }
    if (!(max_ >= min_)) values_.clear();
    // Equal up to rounding (Circle-RoPE's distances, PTD 0): one colour, not amplified noise.
    flat_ = ColorScale::linear(min_, max_).isFlat();
  }

  const int frame = seg.kind == SegmentKind::Video ? firstFrameOfPair(temporal_) : 0;
  picture_ = pictureFrame(seg.source, frame, &error_);
  captionLabel_->setText(caption());
  canvas_->update();
}

QString PictureView::caption() const {
  if (segment_ < 0) return captionLabel_->text();
  const Segment& seg = model_->validScene().layout.segments[segment_];
  QString text = tr("%1 \xe2\x86\x92 resized %2 \xe2\x86\x92 %3")
                     .arg(pixelSizeText(seg.source.width, seg.source.height),
                          pixelSizeText(seg.source.resizedWidth, seg.source.resizedHeight),
                          gridText(rows_, cols_));
  if (seg.kind == SegmentKind::Video)
    text += tr(" \xc2\xb7 temporal patch %1 of %2 (frame %3, the first of its pair)")
                .arg(temporal_)
                .arg(seg.frames)
                .arg(firstFrameOfPair(temporal_));
  if (!values_.empty()) {
    if (flat_) text += tr(" \xc2\xb7 the same for every patch");
    text += overlay_ == PictureOverlay::Distance
                ? tr(" \xc2\xb7 distance from text token %1").arg(model_->validScene().selectedText)
                : tr(" \xc2\xb7 positional bias from text token %1")
                      .arg(model_->validScene().selectedText);
  }
  if (!error_.isEmpty()) text += QLatin1Char('\n') + error_;
  return text;
}

long PictureView::visualIndex(int row, int col) const {
  if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return -1;
  return cellVisual_[static_cast<std::size_t>(row) * cols_ + col];
}

double PictureView::overlayValue(int row, int col) const {
  if (values_.empty() || row < 0 || col < 0 || row >= rows_ || col >= cols_)
    return std::numeric_limits<double>::quiet_NaN();
  return values_[static_cast<std::size_t>(row) * cols_ + col];
}

QColor PictureView::overlayColor(int row, int col) const {
  if (values_.empty()) return {};
  return ColorScale::linear(min_, max_).color(overlayValue(row, col));
}

QRectF PictureView::colorBarRect() const {
  const QRectF area = canvas_->rect();
  return QRectF(area.right() - kBarMargin + 8, area.top() + 14, kBarWidth,
                std::max(20.0, area.height() - 28));
}

QRectF PictureView::pictureRect() const {
  if (rows_ <= 0 || cols_ <= 0) return {};
  QRectF area = canvas_->rect().adjusted(4, 4, -4, -4);
  if (!values_.empty()) area.setRight(area.right() - kBarMargin);
  // The original picture's aspect (the grid is stretched onto it as smart_resize does).
  const QSizeF size = picture_.isNull() ? QSizeF(cols_, rows_) : QSizeF(picture_.size());
  const QSizeF fitted = size.scaled(area.size(), Qt::KeepAspectRatio);
  return QRectF(area.topLeft() + QPointF((area.width() - fitted.width()) / 2,
                                         (area.height() - fitted.height()) / 2),
                fitted);
}

QRectF PictureView::cellRect(int row, int col) const {
  const QRectF r = pictureRect();
  if (r.isEmpty()) return {};
  const double w = r.width() / cols_, h = r.height() / rows_;
  return QRectF(r.left() + col * w, r.top() + row * h, w, h);
}

bool PictureView::cellAt(QPointF pos, int* row, int* col) const {
  const QRectF r = pictureRect();
  if (r.isEmpty() || !r.contains(pos)) return false;
  *col = std::clamp(static_cast<int>((pos.x() - r.left()) / r.width() * cols_), 0, cols_ - 1);
  *row = std::clamp(static_cast<int>((pos.y() - r.top()) / r.height() * rows_), 0, rows_ - 1);
  return true;
}

void PictureView::paintCanvas(QPainter& p) {
  p.fillRect(canvas_->rect(), palette().color(QPalette::Base));
  const QRectF r = pictureRect();
  if (r.isEmpty()) {
    p.setPen(palette().color(QPalette::Mid));
    p.drawText(canvas_->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
               captionLabel_->text());
    return;
  }
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  if (!picture_.isNull()) p.drawImage(r, picture_);

  // Heat: one cell per visual token, over the picture.
  if (!values_.empty()) {
    for (int row = 0; row < rows_; ++row)
      for (int col = 0; col < cols_; ++col) {
        QColor c = overlayColor(row, col);
        c.setAlphaF(kOverlayAlpha);
        p.fillRect(cellRect(row, col), c);
      }
  }

  // Grid lines: thin, light over dark with a dark halo so they read on any picture.
  p.setRenderHint(QPainter::Antialiasing, false);
  for (int pass = 0; pass < 2; ++pass) {
    p.setPen(QPen(pass == 0 ? QColor(0, 0, 0, 90) : QColor(255, 255, 255, 150), pass == 0 ? 3 : 1));
    for (int c = 0; c <= cols_; ++c) {
      const double x = r.left() + r.width() * c / cols_;
      p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
    }
    for (int row = 0; row <= rows_; ++row) {
      const double y = r.top() + r.height() * row / rows_;
      p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
    }
  }

  // The linked selection: the patch picked here or in the 3-D view.
  const long selected = model_->selectedVisual();
  for (int row = 0; row < rows_ && selected >= 0; ++row)
    for (int col = 0; col < cols_; ++col) {
      if (visualIndex(row, col) != selected) continue;
      p.setRenderHint(QPainter::Antialiasing);
      p.setPen(QPen(QColor(0, 0, 0), 5));
      p.drawRect(cellRect(row, col));
      p.setPen(QPen(QColor(255, 230, 60), 3));
      p.drawRect(cellRect(row, col));
    }

  // Colour bar with its value labels.
  if (!values_.empty()) {
    const ColorScale scale = ColorScale::linear(min_, max_);
    ColorBarStyle style;
    style.labelWidth = kBarMargin - kBarWidth - 10;
    p.setPen(palette().color(QPalette::Text));
    paintColorBar(p, colorBarRect(), scale, scale.ticks(5), style);
  }
}

void PictureView::clickCanvas(QPointF pos) {
  int row = 0, col = 0;
  if (!cellAt(pos, &row, &col)) return;
  const long v = visualIndex(row, col);
  if (v >= 0) model_->setSelectedVisual(v);
}

QString PictureView::describeAt(QPointF pos) const {
  int row = 0, col = 0;
  if (!cellAt(pos, &row, &col)) return {};
  QString text = tr("patch row %1, col %2 \xc2\xb7 visual token %3")
                     .arg(row)
                     .arg(col)
                     .arg(visualIndex(row, col));
  const double v = overlayValue(row, col);
  if (!std::isnan(v))
    text += QLatin1Char('\n') +
            (overlay_ == PictureOverlay::Distance ? tr("distance %1") : tr("positional bias %1"))
                .arg(QString::number(v, 'g', 6));
  return text;
}

}  // namespace ropescope::ui
