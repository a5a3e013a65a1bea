// MM-RoPE (Lumos-1): the M-RoPE walk with a per-axis position scale on a visual block's local
// indices, (off + k*stride*s_t, off + r*s_h, off + c*s_w); text resumes one past the block's
// largest id over the three axes. Published with the mm-rope plan (t,t,h,w,h,w,h,w) and the
// scale 4,8,8 of the Revisiting repo's port.
#include <algorithm>

#include "design_base.h"

namespace ropescope::detail {

namespace {
ParameterSpec scaleSpec(const char* key, const char* label, const char* axis, double def) {
  return {key,
          label,
          std::string("Position scale of the ") + axis + " index inside a visual block",
          ParameterSpec::Kind::Number,
          0.0,
          1000.0,
          true,
          def,
          {}};
}
}  // namespace

class MmRopeDesign final : public DesignBase {
 public:
  MmRopeDesign()
      : DesignBase("mm-rope", "MM-RoPE (Lumos-1)",
                   "M-RoPE walk with per-axis scales: (off + k*stride*s_t, off + r*s_h, "
                   "off + c*s_w); text one past the block's largest id.",
                   MetricSpace::Space,
                   {scaleSpec("scale_t", "Scale s_t", "temporal", 4.0),
                    scaleSpec("scale_h", "Scale s_h", "row", 8.0),
                    scaleSpec("scale_w", "Scale s_w", "column", 8.0),
                    {"temporal_stride",
                     "Temporal stride",
                     "Temporal id step per temporal patch, before the scale",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     false,
                     1.0,
                     {}}}) {}

  std::string suggestedPlan() const override { return "mm-rope"; }

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const auto specs = parameters();
    const double st = params.get("scale_t", specs) * params.get("temporal_stride", specs);
    const double sh = params.get("scale_h", specs), sw = params.get("scale_w", specs);
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          for (int f = 0; f < seg.frames; ++f)
            for (int r = 0; r < seg.rows; ++r)
              for (int c = 0; c < seg.cols; ++c)
                b.ids.push_back({off + f * st, off + r * sh, off + c * sw});
          b.walkMax =
              off + std::max({(seg.frames - 1) * st, (seg.rows - 1) * sh, (seg.cols - 1) * sw});
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& mmRopeDesign() {
  static const MmRopeDesign d;
  return d;
}

}  // namespace ropescope::detail
