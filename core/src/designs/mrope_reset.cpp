// Spatial reset (the Revisiting paper's design for MRoPE-I and MHRoPE): h and w restart at 0 in
// every visual block; the token after the block gets the id M-RoPE would give it.
#include "design_base.h"

namespace ropescope::detail {

class MropeResetDesign final : public DesignBase {
 public:
  MropeResetDesign()
      : DesignBase("mrope-reset", "M-RoPE, spatial reset",
                   "t = off + k*stride, h = row, w = col (local); text continues as in M-RoPE.",
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

const PositionDesign& mropeResetDesign() {
  static const MropeResetDesign d;
  return d;
}

}  // namespace ropescope::detail
