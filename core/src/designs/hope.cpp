// HoPE (Li et al. 2025): VideoRoPE's layout with a temporal scale (dynamic temporal scaling; one
// user-set scale at inference). Its zero-frequency temporal band is the `hope` frequency plan.
#include "design_base.h"

namespace ropescope::detail {

class HopeDesign final : public DesignBase {
 public:
  HopeDesign()
      : DesignBase("hope", "HoPE",
                   "VideoRoPE's diagonal layout with a temporal scale (training draws 0.5..1.5).",
                   MetricSpace::Space,
                   {{"temporal_scale",
                     "Temporal scale",
                     "Temporal id step per temporal patch",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     true,
                     1.0,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double scale = params.get("temporal_scale", parameters());
    return walkLayout(
        layout, [&](const Segment& seg, double off) { return diagonalBlock(seg, off, scale); },
        name(), metricSpace());
  }
};

const PositionDesign& hopeDesign() {
  static const HopeDesign d;
  return d;
}

}  // namespace ropescope::detail
