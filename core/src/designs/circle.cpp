// Circle-RoPE (arXiv 2505.16416): each image becomes a ring in the plane ⟂ (1,1,1), centred on
// the text axis at the index its first token would get; every text token sees a cone.
#include <algorithm>

#include "design_base.h"
#include "ropescope/circle_projection.h"

namespace ropescope::detail {

namespace {
using K = ParameterSpec::Kind;
}

class CircleDesign final : public DesignBase {
 public:
  CircleDesign()
      : DesignBase("circle", "Circle-RoPE (cone)",
                   "Image grid mapped onto a ring orthogonal to the text axis: every text token is "
                   "equidistant from all patches of an image (PTD = 0).",
                   MetricSpace::Space,
                   {{"alpha",
                     "α (angle mix)",
                     "θ = α·SA + (1−α)·GA: 1 keeps spatial angles, 0 grid order",
                     K::Number,
                     0.0,
                     1.0,
                     false,
                     0.5,
                     {}},
                    {"radius_mode",
                     "Radius mode",
                     "fixed R, or auto: R = k · largest grid coordinate",
                     K::Choice,
                     0,
                     1,
                     false,
                     0,
                     {"fixed", "auto"}},
                    {"radius",
                     "R (radius)",
                     "Ring radius in index units (released config: 10)",
                     K::Number,
                     0.0,
                     1e6,
                     true,
                     10.0,
                     {}},
                    {"auto_k",
                     "auto-k factor",
                     "Multiplier of the auto radius",
                     K::Number,
                     0.0,
                     1000.0,
                     true,
                     1.0,
                     {}},
                    {"centre",
                     "Centre grid",
                     "Subtract the grid's mid-range before the angles (move_to_origin)",
                     K::Bool,
                     0,
                     1,
                     false,
                     1.0,
                     {}},
                    {"dff",
                     "β (Dual-Frame Fusion)",
                     "(1−β)·ring + β·projected grid; β > 0 makes PTD > 0",
                     K::Number,
                     0.0,
                     1.0,
                     false,
                     0.0,
                     {}},
                    {"move_to_positive",
                     "Move to positive",
                     "Shift ids along (1,1,1) by |min| (+ offset) so all are ≥ 0",
                     K::Choice,
                     0,
                     2,
                     false,
                     0,
                     {"off", "auto", "offset"}},
                    {"positive_offset",
                     "Positive offset",
                     "Extra shift with move_to_positive = offset",
                     K::Number,
                     0.0,
                     1e6,
                     false,
                     0.0,
                     {}},
                    {"no_circle",
                     "No circle",
                     "Project the grid itself instead of a ring",
                     K::Bool,
                     0,
                     1,
                     false,
                     0.0,
                     {}},
                    {"temporal_stride",
                     "Temporal stride",
                     "Video frames step along (1,1,1) by this",
                     K::Number,
                     0.0,
                     1000.0,
                     false,
                     1.0,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const auto specs = parameters();
    CircleOptions o;
    o.alpha = params.get("alpha", specs);
    o.autoRadius = params.get("radius_mode", specs) == 1.0;
    o.radius = params.get("radius", specs);
    o.autoK = params.get("auto_k", specs);
    o.centre = params.get("centre", specs) != 0.0;
    o.dff = params.get("dff", specs);
    o.moveToPositive = static_cast<CircleOptions::Positive>(
        static_cast<int>(params.get("move_to_positive", specs)));
    o.positiveOffset = params.get("positive_offset", specs);
    o.noCircle = params.get("no_circle", specs) != 0.0;
    const double stride = params.get("temporal_stride", specs);
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          const std::vector<CircleCell> ring = circleProjection(seg.rows, seg.cols, o);
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          double mx = off;
          bool first = true;
          for (int f = 0; f < seg.frames; ++f) {
            const double centre = off + f * stride;
            for (const CircleCell& cell : ring) {
              const Id3 id{centre + cell.offset[0], centre + cell.offset[1],
                           centre + cell.offset[2]};
              const double m = std::max({id[0], id[1], id[2]});
              mx = first ? m : std::max(mx, m);
              first = false;
              b.ids.push_back(id);
            }
          }
          b.walkMax = mx;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& circleDesign() {
  static const CircleDesign d;
  return d;
}

}  // namespace ropescope::detail
