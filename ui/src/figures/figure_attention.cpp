#include "figures/figure_attention.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "attention/attention_picture.h"
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

// Logits that are equal in exact arithmetic come out of the float products a few ulps apart, in
// an order that depends on the CPU (Eigen sizes its product blocks by the cache sizes it reads):
// ranked raw, such ties would take their colours from rounding noise, different from one machine
// to the next (33 % of one figure's pixels). They are ranked on a grid of 1e-5 of the logits'
// magnitude instead: far above float noise (about 1e-7 of it), far below a visible difference.
class RankGrid {
 public:
  explicit RankGrid(const AttentionFigure& a)
      : origin_(a.lo), step_(1e-5 * std::max(std::abs(a.lo), std::abs(a.hi))) {}
  double snap(double v) const {
    return step_ > 0 ? origin_ + std::round((v - origin_) / step_) * step_ : v;
  }

 private:
  double origin_, step_;
};

// Quantile of v among sorted values: the mean rank of the values equal to it, over n - 1.
double quantileOf(const std::vector<double>& sorted, double v) {
  if (sorted.size() < 2) return 0.5;
  const auto lo = std::lower_bound(sorted.begin(), sorted.end(), v);
  const auto hi = std::upper_bound(sorted.begin(), sorted.end(), v);
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

// The figure's values on the rank grid, sorted.
std::vector<double> sortedValues(const AttentionFigure& a, const RankGrid& grid) {
  std::vector<double> v;
  v.reserve(a.values.size());
  for (float x : a.values) v.push_back(grid.snap(x));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

std::vector<double> attentionColorPositions(const AttentionFigure& a) {
  const RankGrid grid(a);
  const std::vector<double> sorted = sortedValues(a, grid);
  std::vector<double> out;
  out.reserve(a.values.size());
  for (float v : a.values) out.push_back(quantileOf(sorted, grid.snap(v)));
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
  const RankGrid grid(a);
  const std::vector<double> sorted = sortedValues(a, grid);
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
    const double q = quantileOf(sorted, grid.snap(v));
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
  const HeatmapLook look = HeatmapLook::publication();
  AttentionPicture pic;
  if (o.title)
    pic.title = QStringLiteral("Positional attention logits (%1, identical q, k)")
                    .arg(QString::fromStdString(a.design));
  const std::vector<double> positions = attentionColorPositions(a);
  pic.cells = QImage(a.side, a.side, QImage::Format_RGB32);
  for (int y = 0; y < a.side; ++y)
    for (int x = 0; x < a.side; ++x)
      pic.cells.setPixelColor(x, y, viridis(positions[static_cast<std::size_t>(y) * a.side + x]));
  const double n = static_cast<double>(std::max<std::size_t>(1, a.tokens));
  for (std::size_t edge : a.boundaries) pic.edges.push_back(static_cast<double>(edge) / n);
  pic.keyTitle = QString::fromUtf8("key token (0\xe2\x80\x93%1)").arg(a.tokens - 1);
  pic.queryTitle = QStringLiteral("query token");
  pic.barTitle = QStringLiteral("logit (colour: quantile)");
  // The range's scale says only whether it is flat: the colours are the logits' quantiles, and
  // the bar shows round logits where they fall, one label height apart.
  pic.scale = ColorScale::linear(a.lo, a.hi);
  pic.digits = 6;
  const QRectF bar = attentionLayout(logical, look, o.title).bar;
  const double labelHeight = QFontMetricsF(figure::font(figure::Text::Label)).height() + 2;
  pic.ticks = attentionColorTicks(a, labelHeight / std::max(1.0, bar.height()));
  paintAttentionPicture(p, logical, pic, look);
}

}  // namespace ropescope::ui
