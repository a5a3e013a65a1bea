// V2PE (arXiv 2412.09616, Revisiting-repo port): 1-D ids where the N visual tokens of a block
// advance by visual_stride / N each; text resumes at ceil(last visual id) + 1.
#include <cmath>

#include "design_base.h"

namespace ropescope::detail {

class V2peDesign final : public DesignBase {
 public:
  V2peDesign()
      : DesignBase("v2pe", "V2PE",
                   "1-D ids; a visual block spans visual_stride index units in N equal steps.",
                   MetricSpace::Line,
                   {{"visual_stride",
                     "Visual stride",
                     "Index units one visual block spans",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1e6,
                     true,
                     16.0,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double stride = params.get("visual_stride", parameters());
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          BlockIds b;
          const std::size_t n = seg.tokenCount();
          const double last = off - 1.0;
          const double step = stride / static_cast<double>(n);
          b.ids.reserve(n);
          for (std::size_t j = 0; j < n; ++j) {
            const double p = last + step * static_cast<double>(j + 1);
            b.ids.push_back({p, p, p});
          }
          b.walkMax = std::ceil(b.ids.back()[0]);
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& v2peDesign() {
  static const V2peDesign d;
  return d;
}

}  // namespace ropescope::detail
