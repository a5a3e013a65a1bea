#include "figure_attention.h"

#include <QImage>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ropescope/attention.h"
#include "ropescope/scene_metrics.h"
#include "viridis.h"

namespace ropescope::ui {

AttentionFigure attentionFigure(const Scene& scene) {
  AttentionFigure a;
  const AttentionProblem problem = makeAttentionProblem(scene, QkSourceSpec{}, false);
  a.tokens = problem.ids.size();
  a.design = effectiveDesign(scene);
  const auto backend = makeCpuAttentionBackend(1);
  backend->load(problem);
  const std::size_t n = a.tokens;
  a.block = static_cast<int>((n + kAttentionMaxSide - 1) / kAttentionMaxSide);
  a.side = static_cast<int>((n + a.block - 1) / a.block);
  a.values.resize(static_cast<std::size_t>(a.side) * a.side);
  if (a.block == 1)
    backend->rows(0, 0, n, AttentionValue::Logits, a.values.data());
  else
    backend->pooled(0, a.block, AttentionValue::Logits, a.values.data());
  const auto [mn, mx] = std::minmax_element(a.values.begin(), a.values.end());
  a.lo = *mn;
  a.hi = *mx;
  std::size_t edge = 0;
  const auto& segments = scene.layout.segments;
  for (std::size_t s = 0; s + 1 < segments.size(); ++s) {
    edge += segments[s].tokenCount();
    a.boundaries.push_back(edge);
  }
  return a;
}

Table attentionTable(const AttentionFigure& a) {
  Table t;
  t.columns = {a.block == 1 ? "query" : "query_block_start",
               a.block == 1 ? "key" : "key_block_start", a.block == 1 ? "logit" : "mean_logit"};
  for (int r = 0; r < a.side; ++r)
    for (int c = 0; c < a.side; ++c)
      t.rows.push_back({static_cast<long long>(r) * a.block, static_cast<long long>(c) * a.block,
                        static_cast<double>(a.values[static_cast<std::size_t>(r) * a.side + c])});
  return t;
}

void paintAttentionFigure(QPainter& p, QSizeF logical, const AttentionFigure& a,
                          const FigureOptions& o) {
  p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
  const double band = o.title ? 26.0 : 6.0;
  if (o.title) {
    p.setFont(figure::font(figure::Text::Title));
    p.setPen(figure::foreground());
    p.drawText(QRectF(4, 0, logical.width() - 8, band), Qt::AlignCenter,
               QStringLiteral("Positional attention logits (%1, identical q, k)")
                   .arg(QString::fromStdString(a.design)));
  }
  const double left = 46, bottom = 40, barMargin = 92;
  const double avail =
      std::min(logical.width() - left - barMargin, logical.height() - band - bottom);
  const double side = std::max(10.0, avail);
  const QRectF r(left + (logical.width() - left - barMargin - side) / 2, band + 4, side, side);
  const bool flat = !(a.hi - a.lo > 1e-12 * std::max(1.0, std::abs(a.hi)));
  QImage cells(a.side, a.side, QImage::Format_RGB32);
  for (int y = 0; y < a.side; ++y)
    for (int x = 0; x < a.side; ++x) {
      const double v = a.values[static_cast<std::size_t>(y) * a.side + x];
      cells.setPixelColor(x, y, viridis(flat ? 0.5 : (v - a.lo) / (a.hi - a.lo)));
    }
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(r, cells);
  QPen frame(figure::foreground());
  frame.setWidthF(0.75);
  p.setPen(frame);
  p.drawRect(r);
  // Segment boundaries as ticks outside the map.
  const double n = static_cast<double>(std::max<std::size_t>(1, a.tokens));
  for (std::size_t edge : a.boundaries) {
    const double f = static_cast<double>(edge) / n;
    p.drawLine(QPointF(r.left() + f * r.width(), r.bottom() + 1),
               QPointF(r.left() + f * r.width(), r.bottom() + 6));
    p.drawLine(QPointF(r.left() - 6, r.top() + f * r.height()),
               QPointF(r.left() - 1, r.top() + f * r.height()));
  }
  p.setFont(figure::font(figure::Text::AxisTitle));
  p.drawText(QRectF(r.left(), r.bottom() + 8, r.width(), 20), Qt::AlignCenter,
             QString::fromUtf8("key token (0\xe2\x80\x93%1)").arg(a.tokens - 1));
  p.save();
  p.translate(r.left() - 10, r.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-r.height() / 2, -22, r.height(), 20), Qt::AlignCenter,
             QStringLiteral("query token"));
  p.restore();

  // Colour bar with five values (one when every logit is equal).
  const QRectF bar(r.right() + 12, r.top(), 14, r.height());
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int k = 0; k <= 16; ++k) g.setColorAt(k / 16.0, viridis(k / 16.0));
  p.fillRect(bar, g);
  p.drawRect(bar);
  p.setFont(figure::font(figure::Text::Label));
  const int ticks = flat ? 1 : 5;
  for (int k = 0; k < ticks; ++k) {
    const double t = flat ? 0.5 : static_cast<double>(k) / (ticks - 1);
    const double y = bar.bottom() - t * bar.height();
    p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
    p.drawText(QRectF(bar.right() + 6, y - 9, barMargin - 32, 18), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(a.lo + t * (a.hi - a.lo), 'g', 3));
  }
}

}  // namespace ropescope::ui
