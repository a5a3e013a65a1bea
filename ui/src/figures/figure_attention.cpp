#include "figures/figure_attention.h"

#include <QFontMetricsF>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ropescope/attention.h"
#include "ropescope/scene_metrics.h"
#include "style/viridis.h"

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

namespace {

// Quantile of v among sorted values: the mean rank of the values equal to it, over n - 1.
double quantileOf(const std::vector<float>& sorted, double v) {
  if (sorted.size() < 2) return 0.5;
  const auto lo = std::lower_bound(sorted.begin(), sorted.end(), static_cast<float>(v));
  const auto hi = std::upper_bound(sorted.begin(), sorted.end(), static_cast<float>(v));
  const double below = static_cast<double>(lo - sorted.begin());
  const double equal = static_cast<double>(hi - lo);
  const double n = static_cast<double>(sorted.size());
  if (equal > 0) return (below + (equal - 1) / 2) / (n - 1);
  // Between two values: interpolate their ranks.
  if (lo == sorted.begin()) return 0.0;
  if (lo == sorted.end()) return 1.0;
  const double a = *(lo - 1), b = *lo;
  return (below - 1 + (v - a) / (b - a)) / (n - 1);
}

std::vector<float> sortedValues(const AttentionFigure& a) {
  std::vector<float> v = a.values;
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

std::vector<double> attentionColorPositions(const AttentionFigure& a) {
  const std::vector<float> sorted = sortedValues(a);
  std::vector<double> out;
  out.reserve(a.values.size());
  for (float v : a.values) out.push_back(quantileOf(sorted, v));
  return out;
}

std::vector<ColorTick> attentionColorTicks(const AttentionFigure& a, double minGap) {
  std::vector<ColorTick> out;
  if (a.values.empty()) return out;
  const double span = a.hi - a.lo;
  if (!(span > 1e-12 * std::max(1.0, std::abs(a.hi)))) {
    out.push_back({a.lo, 0.5});
    return out;
  }
  const std::vector<float> sorted = sortedValues(a);
  // Candidates at 1-2-5 steps from about a fifth of the range down to a thousandth of that,
  // coarser steps first: where the logits crowd into a narrow band (most of the colour bar),
  // finer round values label it.
  const double raw = span / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double base = 10 * mag;
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) {
      base = m * mag;
      break;
    }
  std::vector<std::pair<int, double>> candidates;  // (level, value), level 0 the coarsest
  std::vector<double> seen;
  for (int level = 0; level < 4; ++level) {
    const double step = base / std::pow(10.0, level);
    for (double k = std::ceil(a.lo / step - 1e-9); k * step <= a.hi + step * 1e-9; k += 1) {
      const double v = k * step;
      bool dup = false;
      for (double w : seen) dup = dup || std::abs(w - v) < step * 1e-6;
      if (dup) continue;
      seen.push_back(v);
      candidates.push_back({level, v});
    }
  }
  for (const auto& [level, v] : candidates) {
    const double q = quantileOf(sorted, v);
    bool free = true;
    for (const ColorTick& t : out) free = free && std::abs(t.position - q) >= minGap;
    if (free) out.push_back({v, q});
  }
  std::sort(out.begin(), out.end(),
            [](const ColorTick& x, const ColorTick& y) { return x.value < y.value; });
  return out;
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
  const std::vector<double> positions = attentionColorPositions(a);
  QImage cells(a.side, a.side, QImage::Format_RGB32);
  for (int y = 0; y < a.side; ++y)
    for (int x = 0; x < a.side; ++x)
      cells.setPixelColor(x, y, viridis(positions[static_cast<std::size_t>(y) * a.side + x]));
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

  // Colour bar on the quantile scale: round logits where they fall, one label height apart.
  const QRectF bar(r.right() + 12, r.top(), 14, r.height());
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int k = 0; k <= 16; ++k) g.setColorAt(k / 16.0, viridis(k / 16.0));
  p.fillRect(bar, g);
  p.drawRect(bar);
  p.setFont(figure::font(figure::Text::Label));
  const double labelHeight = QFontMetricsF(p.font()).height() + 2;
  for (const ColorTick& t : attentionColorTicks(a, labelHeight / std::max(1.0, bar.height()))) {
    const double y = bar.bottom() - t.position * bar.height();
    p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
    p.drawText(QRectF(bar.right() + 6, y - 9, barMargin - 32, 18), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(t.value, 'g', 6));
  }
  p.save();
  p.translate(bar.right() + barMargin - 22, bar.center().y());
  p.rotate(-90);
  p.setFont(figure::font(figure::Text::Label));
  p.drawText(QRectF(-bar.height() / 2, -9, bar.height(), 18), Qt::AlignCenter,
             QStringLiteral("logit (colour: quantile)"));
  p.restore();
}

}  // namespace ropescope::ui
