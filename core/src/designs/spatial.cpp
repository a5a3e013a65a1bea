// The 2-D spatial illustration of the Circle-RoPE paper: the M-RoPE walk, distances measured in
// the (row, col) plane, text on the diagonal.
#include "design_base.h"

namespace ropescope::detail {

class SpatialDesign final : public DesignBase {
 public:
  SpatialDesign()
      : DesignBase("spatial", "Spatial (2-D)",
                   "Visual tokens at (row, col) offset by the block start, text on the diagonal; "
                   "distances in the (h, w) plane (Circle-RoPE Fig. 1c).",
                   MetricSpace::Plane, {}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          return gridBlock(
              seg, off, [](int k) { return static_cast<double>(k); }, false);
        },
        name(), metricSpace());
  }
};

const PositionDesign& spatialDesign() {
  static const SpatialDesign d;
  return d;
}

}  // namespace ropescope::detail
