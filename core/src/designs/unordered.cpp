// Unordered embedding (mPLUG-Owl3): all visual tokens of a block share one index.
#include "design_base.h"

namespace ropescope::detail {

class UnorderedDesign final : public DesignBase {
 public:
  UnorderedDesign()
      : DesignBase("unordered", "Unordered",
                   "Every visual token of a block shares the block's one index (mPLUG-Owl3).",
                   MetricSpace::Line, {}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          b.ids.assign(seg.tokenCount(), Id3{off, off, off});
          b.walkMax = off;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& unorderedDesign() {
  static const UnorderedDesign d;
  return d;
}

}  // namespace ropescope::detail
