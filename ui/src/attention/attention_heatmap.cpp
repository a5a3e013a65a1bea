#include "attention/attention_heatmap.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/attention_picture.h"
#include "attention/token_name.h"

namespace ropescope::ui {

namespace {

QString formatValue(double v) {
  if (std::isinf(v)) return v < 0 ? QStringLiteral("masked (-inf)") : QStringLiteral("inf");
  return QString::number(v, 'g', 5);
}

}  // namespace

AttentionHeatmap::AttentionHeatmap(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("attentionHeatmap"));
  setMouseTracking(true);
  setMinimumSize(260, 220);
}

void AttentionHeatmap::setResult(std::shared_ptr<const AttentionResult> result,
                                 std::shared_ptr<const std::vector<TokenInfo>> tokens) {
  result_ = std::move(result);
  tokens_ = std::move(tokens);
  rebuild();
}

void AttentionHeatmap::setLogScale(bool on) {
  if (on == logWanted_) return;
  logWanted_ = on;
  rebuild();
}

void AttentionHeatmap::setBusy(bool busy) {
  busy_ = busy;
  if (image_.isNull()) update();
}

void AttentionHeatmap::setZoom(std::size_t begin, std::size_t span) {
  const std::size_t n = sequenceLength_;
  span = std::clamp<std::size_t>(span, std::min<std::size_t>(8, n), n);
  zoomSpan_ = span >= n ? 0 : span;
  zoomBegin_ = zoomSpan_ ? std::min(begin, n - span) : 0;
  rebuild();
  emit zoomChanged();
}

std::size_t AttentionHeatmap::shownSpan(std::size_t n) const {
  return zoomSpan_ ? std::min(zoomSpan_, n) : n;
}

std::size_t AttentionHeatmap::shownBegin(std::size_t n) const {
  return zoomSpan_ ? std::min(zoomBegin_, n - shownSpan(n)) : 0;
}

double AttentionHeatmap::sidePixels() const {
  return mapRect().width() * devicePixelRatioF();
}

QRectF AttentionHeatmap::mapRect() const {
  return attentionLayout(size(), HeatmapLook::screen(palette()), true).map;
}

void AttentionHeatmap::rebuild() {
  image_ = {};
  scale_ = {};
  if (!result_) {
    update();
    return;
  }
  const AttentionResult& r = *result_;
  const std::size_t n = r.tokens;
  const float* data = nullptr;
  std::size_t w = 0, h = 0;
  if (r.request.exactRows) {
    // The exact rows cover the visible range only: take the visible columns of them.
    h = r.request.rowEnd - r.request.rowBegin;
    w = h;
    imageFirstToken_ = static_cast<double>(r.request.rowBegin);
    imageTokensPerPixel_ = 1.0;
    data = r.rows.data();
  } else {
    w = h = r.blocksPerSide;
    imageFirstToken_ = 0.0;
    imageTokensPerPixel_ = r.request.block;
    data = r.pooled.data();
  }
  if (!data || w == 0) {
    update();
    return;
  }
  const std::size_t stride = r.request.exactRows ? n : w;
  const std::size_t col0 = r.request.exactRows ? r.request.rowBegin : 0;
  ValueRange range;
  for (std::size_t i = 0; i < h; ++i)
    for (std::size_t j = 0; j < w; ++j) range.add(data[i * stride + col0 + j]);
  scale_ = ColorScale::fitting(range, logWanted_ && r.request.value == AttentionValue::Softmax);
  image_ = QImage(static_cast<int>(w), static_cast<int>(h), QImage::Format_RGB32);
  for (std::size_t i = 0; i < h; ++i) {
    auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(i)));
    for (std::size_t j = 0; j < w; ++j) line[j] = scale_.color(data[i * stride + col0 + j]).rgb();
  }
  update();
}

bool AttentionHeatmap::tokenAt(QPointF pos, std::size_t* row, std::size_t* col) const {
  if (!result_) return false;
  const QRectF r = mapRect();
  if (!r.contains(pos)) return false;
  const std::size_t n = result_->tokens;
  const std::size_t span = shownSpan(n), begin = shownBegin(n);
  const auto at = [&](double frac) {
    return std::min(begin + static_cast<std::size_t>(frac * static_cast<double>(span)),
                    begin + span - 1);
  };
  *row = at((pos.y() - r.top()) / r.height());
  *col = at((pos.x() - r.left()) / r.width());
  return true;
}

double AttentionHeatmap::valueAt(QPointF pos) const {
  std::size_t i = 0, j = 0;
  if (!tokenAt(pos, &i, &j)) return std::numeric_limits<double>::quiet_NaN();
  const AttentionResult& r = *result_;
  if (r.request.exactRows) {
    if (i < r.request.rowBegin || i >= r.request.rowEnd)
      return std::numeric_limits<double>::quiet_NaN();
    return r.rows[(i - r.request.rowBegin) * r.tokens + j];
  }
  const std::size_t b = static_cast<std::size_t>(r.request.block);
  return r.pooled[(i / b) * r.blocksPerSide + j / b];
}

QString AttentionHeatmap::describeAt(QPointF pos) const {
  std::size_t i = 0, j = 0;
  if (!tokenAt(pos, &i, &j)) return {};
  const double v = valueAt(pos);
  if (std::isnan(v)) return {};
  const AttentionResult& r = *result_;
  const std::vector<TokenInfo> none;
  const std::vector<TokenInfo>& tokens = tokens_ ? *tokens_ : none;
  const QString what = r.request.value == AttentionValue::Softmax ? tr("softmax") : tr("logit");
  QString text =
      tr("query %1\nkey %2\n").arg(attentionTokenName(tokens, i), attentionTokenName(tokens, j));
  const int b = r.request.exactRows ? 1 : r.request.block;
  if (b == 1) {
    text += tr("%1 = %2").arg(what, formatValue(v));
  } else {
    const std::size_t i0 = i / b * b, j0 = j / b * b;
    text += tr("%1, mean of the %2\xc3\x97%2 block (queries %3\xe2\x80\x93%4, keys "
               "%5\xe2\x80\x93%6) = %7\nzoom in for single tokens")
                .arg(what)
                .arg(b)
                .arg(i0)
                .arg(std::min(i0 + b, r.tokens) - 1)
                .arg(j0)
                .arg(std::min(j0 + b, r.tokens) - 1)
                .arg(formatValue(v));
  }
  return text + tr("\nhead %1").arg(r.request.head + 1);
}

void AttentionHeatmap::clickAt(QPointF pos) {
  std::size_t i = 0, j = 0;
  if (!tokens_ || !tokenAt(pos, &i, &j) || i >= tokens_->size()) return;
  if ((*tokens_)[i].modality != Modality::Text) return;
  int textIndex = 0;
  for (std::size_t k = 0; k < i; ++k)
    if ((*tokens_)[k].modality == Modality::Text) ++textIndex;
  emit textQueryClicked(textIndex);
}

void AttentionHeatmap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const HeatmapLook look = HeatmapLook::screen(palette());
  if (!result_ || image_.isNull()) {
    p.fillRect(rect(), look.background);
    p.setPen(look.foreground);
    p.drawText(mapRect(), Qt::AlignCenter,
               busy_ ? tr("computing\xe2\x80\xa6") : tr("no attention yet"));
    return;
  }
  const AttentionResult& res = *result_;
  const std::size_t n = res.tokens;
  const std::size_t span = shownSpan(n), begin = shownBegin(n);
  AttentionPicture pic;
  pic.cells = image_;
  pic.source = QRectF((begin - imageFirstToken_) / imageTokensPerPixel_,
                      (begin - imageFirstToken_) / imageTokensPerPixel_,
                      span / imageTokensPerPixel_, span / imageTokensPerPixel_);
  std::size_t edge = 0;
  const auto& segments = res.request.scene.layout.segments;
  for (std::size_t s = 0; s + 1 < segments.size(); ++s) {
    edge += segments[s].tokenCount();
    if (edge <= begin || edge >= begin + span) continue;
    pic.edges.push_back(static_cast<double>(edge - begin) / static_cast<double>(span));
  }
  const QString what = res.request.value == AttentionValue::Softmax ? tr("softmax") : tr("logits");
  const int block = res.request.exactRows ? 1 : res.request.block;
  pic.title = tr("%1, head %2, tokens %3\xe2\x80\x93%4 (rows: queries, columns: keys)")
                  .arg(what)
                  .arg(res.request.head + 1)
                  .arg(begin)
                  .arg(begin + span - 1);
  if (block > 1) pic.title += tr(", %1\xc3\x97%1 block means").arg(block);
  pic.scale = scale_;
  pic.ticks = scale_.ticks(5);
  // Masked logits are -inf (no value: grey); masked probabilities are plain zeros and take the
  // low end.
  pic.maskedSwatch = res.request.causal && res.request.value == AttentionValue::Logits;
  paintAttentionPicture(p, size(), pic, look);
}

void AttentionHeatmap::wheelEvent(QWheelEvent* e) {
  e->accept();
  const int delta = e->angleDelta().y();
  if (!result_ || delta == 0) return;
  const std::size_t n = result_->tokens;
  const std::size_t span = shownSpan(n), begin = shownBegin(n);
  const QRectF r = mapRect();
  // Keep the token under the cursor where it is (along the diagonal's axis of the cursor).
  const double frac = std::clamp((e->position().x() - r.left()) / r.width(), 0.0, 1.0);
  const double anchor = begin + frac * span;
  const double factor = delta > 0 ? 0.5 : 2.0;
  const double next = std::max(8.0, span * factor);
  const double start = std::max(0.0, anchor - frac * next);
  setZoom(static_cast<std::size_t>(start), static_cast<std::size_t>(next));
}

void AttentionHeatmap::mousePressEvent(QMouseEvent* e) {
  pressed_ = e->position();
  last_ = pressed_;
  moved_ = false;
}

void AttentionHeatmap::mouseMoveEvent(QMouseEvent* e) {
  if (e->buttons() & Qt::LeftButton) {
    if ((e->position() - pressed_).manhattanLength() > 3) moved_ = true;
    // A drag pans the zoomed view along the diagonal.
    if (moved_ && result_ && zoomSpan_) {
      const QPointF d = e->position() - last_;
      const double tokensPerPx = zoomSpan_ / mapRect().width();
      const double start =
          std::max(0.0, static_cast<double>(zoomBegin_) - (d.x() + d.y()) * tokensPerPx);
      setZoom(static_cast<std::size_t>(start), zoomSpan_);
    }
    last_ = e->position();
    return;
  }
  const QString text = describeAt(e->position());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(e->globalPosition().toPoint(), text, this);
}

void AttentionHeatmap::mouseReleaseEvent(QMouseEvent* e) {
  if (!moved_) clickAt(e->position());
}

}  // namespace ropescope::ui
