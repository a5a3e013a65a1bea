// Hard (1-D) embedding, LLaVA style: every token, visual or not, takes the next index.
#include "design_base.h"

namespace ropescope::detail {

class HardDesign final : public DesignBase {
 public:
  HardDesign()
      : DesignBase("hard", "Hard (1-D)",
                   "Flattens every token to one running index (LLaVA, vanilla RoPE).",
                   MetricSpace::Line, {}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    return walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          const std::size_t n = seg.tokenCount();
          b.ids.reserve(n);
          for (std::size_t j = 0; j < n; ++j) {
            const double p = off + static_cast<double>(j);
            b.ids.push_back({p, p, p});
          }
          b.walkMax = off + static_cast<double>(n) - 1.0;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& hardDesign() {
  static const HardDesign d;
  return d;
}

}  // namespace ropescope::detail
