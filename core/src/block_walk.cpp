// The block walk and the two block shapes (grid, diagonal) that several designs share.
#include "block_walk.h"

#include <algorithm>
#include <cmath>

namespace ropescope::detail {

PositionIds walkLayout(const Layout& layout, const BlockRule& rule, std::string design,
                       MetricSpace space) {
  validateLayout(layout);
  PositionIds out;
  out.design = std::move(design);
  out.space = space;
  const std::size_t n = layout.tokenCount();
  out.ids.reserve(n);
  out.tokens.reserve(n);
  double walkMax = -1.0;
  for (std::size_t s = 0; s < layout.segments.size(); ++s) {
    const Segment& seg = layout.segments[s];
    const int segIndex = static_cast<int>(s);
    if (!seg.isVisual()) {  // text, and audio: a 1-D stream, one position per token
      const bool audio = seg.isAudio();
      for (int j = 0; j < seg.length; ++j) {
        const double p = walkMax + 1.0 + j;
        out.ids.push_back({p, p, p});
        out.tokens.push_back(
            {audio ? Modality::Audio : Modality::Text, segIndex, audio ? j : -1, -1, -1});
      }
      walkMax += seg.length;
      continue;
    }
    BlockIds block = rule(seg, walkMax + 1.0);
    const Modality m = seg.kind == SegmentKind::Image ? Modality::Image : Modality::Video;
    std::size_t k = 0;
    for (int f = 0; f < seg.frames; ++f)
      for (int r = 0; r < seg.rows; ++r)
        for (int c = 0; c < seg.cols; ++c, ++k) {
          out.ids.push_back(block.ids[k]);
          out.tokens.push_back({m, segIndex, f, r, c});
        }
    walkMax = block.walkMax;
  }
  out.ropeDelta = walkMax + 1.0 - static_cast<double>(n);
  return out;
}

BlockIds gridBlock(const Segment& seg, double off, const std::function<double(int)>& tau,
                   bool spatialReset) {
  BlockIds b;
  b.ids.reserve(seg.tokenCount());
  const double base = spatialReset ? 0.0 : off;
  for (int f = 0; f < seg.frames; ++f) {
    const double t = off + tau(f);
    for (int r = 0; r < seg.rows; ++r)
      for (int c = 0; c < seg.cols; ++c) b.ids.push_back({t, base + r, base + c});
  }
  b.walkMax = off + std::max({tau(seg.frames - 1), static_cast<double>(seg.rows - 1),
                              static_cast<double>(seg.cols - 1)});
  return b;
}

BlockIds constantTimeBlock(const Segment& seg, double off, double t) {
  BlockIds b;
  const std::size_t n = seg.tokenCount();
  b.ids.reserve(n);
  const std::size_t perRow = static_cast<std::size_t>(seg.cols) * seg.frames;
  for (std::size_t k = 0; k < n; ++k)
    b.ids.push_back(
        {t, off + static_cast<double>(k / perRow), off + static_cast<double>(k % seg.cols)});
  b.walkMax = off + std::max(seg.rows, seg.cols) - 1;
  return b;
}

BlockIds diagonalBlock(const Segment& seg, double off, double delta) {
  BlockIds b;
  b.ids.reserve(seg.tokenCount());
  const double hc = std::floor((seg.rows - 1) / 2.0);
  const double wc = std::floor((seg.cols - 1) / 2.0);
  for (int f = 0; f < seg.frames; ++f) {
    const double t = off + f * delta;
    for (int r = 0; r < seg.rows; ++r)
      for (int c = 0; c < seg.cols; ++c) b.ids.push_back({t, t + r - hc, t + c - wc});
  }
  b.walkMax = off + (seg.frames - 1) * delta;
  return b;
}

}  // namespace ropescope::detail
