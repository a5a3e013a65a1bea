// OmniRoPE (OmniGen2) (OmniGen2, arXiv 2506.18871) as the Revisiting repo ports it: text (s, s, s);
// a visual block (s + k*stride, row, col) with h and w local; after it s += max((T-1)*stride + 1,
// H, W), which is the spatial-reset walk (the same ids as mrope-reset). Published with the chunked
// M-RoPE sections [16,24,24].
#include "design_base.h"

namespace ropescope::detail {

class OmniRopeDesign final : public DesignBase {
 public:
  OmniRopeDesign()
      : DesignBase("omnirope", "OmniRoPE (OmniGen2)",
                   "t = s + k*stride, h = row, w = col (local); s += max((T-1)*stride+1, H, W); "
                   "plan: chunked M-RoPE sections [16,24,24].",
                   MetricSpace::Space,
                   {{"temporal_stride",
                     "Temporal stride",
                     "Temporal id step per temporal patch",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     false,
                     1.0,
                     {}}}) {}

  std::string suggestedPlan() const override { return "mrope"; }

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double stride = params.get("temporal_stride", parameters());
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          return gridBlock(
              seg, off, [&](int k) { return k * stride; }, true);
        },
        name(), metricSpace());
  }
};

const PositionDesign& omniropeDesign() {
  static const OmniRopeDesign d;
  return d;
}

}  // namespace ropescope::detail
