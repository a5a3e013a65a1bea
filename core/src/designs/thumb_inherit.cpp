// Thumbnail id inheritance for tiled pictures: ID-Align (arXiv 2505.21465, §3: high-resolution
// tokens take the position ids of the thumbnail tokens that cover the same region) and
// RoPE-DHR of CoMemo (arXiv 2506.06279, §3: the tile tokens of a dynamic-high-resolution picture
// are mapped to the thumbnail's positions). 1-D ids: the thumbnail's 16x16 tokens count in raster
// order from off, off + r*side + c; a tile token (tile t at column tc, row tr of the cols x rows
// grid, cell r, c) takes the id of the thumbnail cell under its centre,
// (floor((tr*side + r + 0.5) / rows), floor((tc*side + c + 0.5) / cols)). Text resumes one past
// the thumbnail's last id, off + side^2. A tiled picture of one tile (no thumbnail) and every
// other block count on in raster order, as `hard`.
#include <cmath>

#include "design_base.h"

namespace ropescope::detail {

class ThumbInheritDesign final : public DesignBase {
 public:
  ThumbInheritDesign()
      : DesignBase("thumb-inherit", "Thumbnail id inheritance (ID-Align, RoPE-DHR)",
                   "1-D ids: the thumbnail in raster order, each tile token the id of the "
                   "thumbnail token covering it; text one past the thumbnail.",
                   MetricSpace::Line, {}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          const std::size_t n = seg.tokenCount();
          b.ids.reserve(n);
          const TileGrid& g = seg.tiles;
          if (!g.tiled() || !g.thumbnail) {
            for (std::size_t k = 0; k < n; ++k) {
              const double p = off + static_cast<double>(k);
              b.ids.push_back({p, p, p});
            }
            b.walkMax = off + static_cast<double>(n) - 1.0;
            return b;
          }
          const int side = g.tokenSide;
          for (int t = 0; t < seg.frames; ++t)
            for (int r = 0; r < side; ++r)
              for (int c = 0; c < side; ++c) {
                int tr = r, tc = c;  // the thumbnail's own cell
                if (t < g.cols * g.rows) {
                  tr = static_cast<int>(std::floor(((t / g.cols) * side + r + 0.5) / g.rows));
                  tc = static_cast<int>(std::floor(((t % g.cols) * side + c + 0.5) / g.cols));
                }
                const double p = off + tr * side + tc;
                b.ids.push_back({p, p, p});
              }
          b.walkMax = off + side * side - 1.0;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& thumbInheritDesign() {
  static const ThumbInheritDesign d;
  return d;
}

}  // namespace ropescope::detail
