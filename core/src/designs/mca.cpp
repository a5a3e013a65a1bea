// MCA-LLaVA (Manhattan Causal Attention, ErikZ719/MCA-LLaVA, llava/mca_utils/mca.py): 1-D ids
// where an image token's id is s + its Manhattan distance to the nearest image corner,
// min(r, H-1-r) + min(c, W-1-c); s is the index of the block's first token. The repo builds this
// for its square 24x24 grid (two mirrored halves of i + j) and resumes text at s + H - 1, which
// is the block's largest id + 1; that rule (max + 1) is what this design uses for any grid.
// The repo has no videos: here each frame of a video block is one such image, frame k starting
// one past frame k-1's largest id (ropescope's extension). MCA's causal mask is not modelled.
#include <algorithm>

#include "design_base.h"

namespace ropescope::detail {

class McaDesign final : public PositionDesign {
 public:
  std::string name() const override { return "mca"; }
  std::string title() const override { return "MCA-LLaVA (Manhattan)"; }
  std::string summary() const override {
    return "1-D ids: s + distance to the nearest image corner, min(r,H-1-r) + min(c,W-1-c); "
           "text resumes one past the block's largest id.";
  }
  MetricSpace metricSpace() const override { return MetricSpace::Line; }
  std::vector<ParameterSpec> parameters() const override { return {}; }

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          // Largest in-frame id: the centre cell's distance.
          const double span = (seg.rows - 1) / 2 + (seg.cols - 1) / 2;
          for (int f = 0; f < seg.frames; ++f) {
            const double s = off + f * (span + 1.0);
            for (int r = 0; r < seg.rows; ++r)
              for (int c = 0; c < seg.cols; ++c) {
                const double p = s + std::min(r, seg.rows - 1 - r) + std::min(c, seg.cols - 1 - c);
                b.ids.push_back({p, p, p});
              }
          }
          b.walkMax = off + (seg.frames - 1) * (span + 1.0) + span;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& mcaDesign() {
  static const McaDesign d;
  return d;
}

}  // namespace ropescope::detail
