// The attention preview's heat map: the shown result's logits or softmax as a zoomable map with
// its colour bar. It owns what it shows (the result, the zoom, the colours), says the value under
// the mouse, zooms on the wheel, pans on a drag and reports a click on a text query's row.
#pragma once

#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

#include "jobs/attention_job.h"
#include "ropescope/position_ids.h"
#include "style/color_scale.h"

namespace ropescope::ui {

class AttentionHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit AttentionHeatmap(QWidget* parent = nullptr);

  // What to show: a finished result and the identities of its tokens.
  void setResult(std::shared_ptr<const AttentionResult> result,
                 std::shared_ptr<const std::vector<TokenInfo>> tokens);
  // Softmax coloured by log probability (logits are always linear).
  void setLogScale(bool on);
  // Said in place of the map until a result comes.
  void setBusy(bool busy);
  // Tokens of the scene: the zoom's bounds (the shown result may be of an older scene).
  void setSequenceLength(std::size_t tokens) { sequenceLength_ = tokens; }
  // Shows tokens [begin, begin + span) on both axes (clamped; at least 8); a span of all of them
  // shows everything. Emits zoomChanged.
  void setZoom(std::size_t begin, std::size_t span);
  std::size_t zoomBegin() const { return zoomBegin_; }
  std::size_t zoomSpan() const { return zoomSpan_; }  // 0: everything
  // The shown range [begin, begin + span) of n tokens.
  std::size_t shownBegin(std::size_t n) const;
  std::size_t shownSpan(std::size_t n) const;

  const ColorScale& scale() const { return scale_; }
  QColor colorFor(double value) const { return scale_.color(value); }
  // The map as drawn, one pixel per shown block (or token when zoomed in to single tokens).
  const QImage& image() const { return image_; }
  // Device pixels along the map's side: the finest blocks worth computing.
  double sidePixels() const;
  QRectF mapRect() const;  // where the shown range lies on the widget
  // Value shown at a position (NaN outside), and its tooltip text.
  double valueAt(QPointF pos) const;
  QString describeAt(QPointF pos) const;
  // A click's work: a text query's row picks that text token (textQueryClicked).
  void clickAt(QPointF pos);

 signals:
  // The zoom changed: the range shown wants computing at its own resolution.
  void zoomChanged();
  // The n-th text token's row was clicked.
  void textQueryClicked(int textIndex);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;

 private:
  void rebuild();
  bool tokenAt(QPointF pos, std::size_t* row, std::size_t* col) const;

  std::shared_ptr<const AttentionResult> result_;
  std::shared_ptr<const std::vector<TokenInfo>> tokens_;
  bool logWanted_ = true;
  bool busy_ = false;
  std::size_t sequenceLength_ = 0;
  std::size_t zoomBegin_ = 0, zoomSpan_ = 0;  // 0 span: everything

  QImage image_;
  double imageFirstToken_ = 0.0;  // token at the image's left / top edge
  double imageTokensPerPixel_ = 1.0;
  ColorScale scale_;  // with log colours: from the smallest positive value shown

  QPointF pressed_, last_;
  bool moved_ = false;
};

}  // namespace ropescope::ui
