// VRoPE (Liu et al., arXiv 2502.11664; johncaged/VRoPE, vrope.py): four index maps per visual
// token, every one a diagonal walk over the frame that reaches it from a different corner,
//   m0 = h + w, m1 = h + (W-1-w), m2 = (H-1-h) + w, m3 = (H-1-h) + (W-1-w),
// each plus s + k (H + W - 1) for frame k of a block starting at s, so that every map of the
// block covers s .. s + T (H + W - 1) - 1 and text resumes at s + T (H + W - 1) (the walk's
// max + 1). There are no temporal channels. Text tokens have one id on all four maps.
// Storage: m0, m1, m2 as t, h, w; m3 = m1 + m2 - m0 is Axis::Mix's coordinate (h + w - t), so
// metrics use all four maps (metric space four-maps) and the vrope plan rotates pair i with
// map i mod 4.
#include "design_base.h"

namespace ropescope::detail {

class VropeDesign final : public DesignBase {
 public:
  VropeDesign()
      : DesignBase("vrope", "VRoPE (four flipped maps)",
                   "Four diagonal index maps h+w, h+(W-1-w), (H-1-h)+w, (H-1-h)+(W-1-w) (shown "
                   "as t, h, w; the fourth is h+w-t); frame k shifted by k(H+W-1); pair i uses "
                   "map i mod 4.",
                   MetricSpace::FourMaps, {}) {}
  std::string suggestedPlan() const override { return "vrope"; }

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          const double span = seg.rows + seg.cols - 1.0;
          for (int f = 0; f < seg.frames; ++f) {
            const double s = off + f * span;
            for (int r = 0; r < seg.rows; ++r)
              for (int c = 0; c < seg.cols; ++c)
                b.ids.push_back(
                    {s + r + c, s + r + (seg.cols - 1 - c), s + (seg.rows - 1 - r) + c});
          }
          b.walkMax = off + seg.frames * span - 1.0;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& vropeDesign() {
  static const VropeDesign d;
  return d;
}

}  // namespace ropescope::detail
