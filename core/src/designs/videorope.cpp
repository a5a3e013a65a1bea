// VideoRoPE (Wei et al. 2025): diagonal layout centred on the temporal id, temporal stride delta.
#include "design_base.h"

namespace ropescope::detail {

class VideoRopeDesign final : public DesignBase {
 public:
  VideoRopeDesign()
      : DesignBase("videorope", "VideoRoPE",
                   "Diagonal layout: h and w centred on t; frames advance by the temporal stride; "
                   "text follows the temporal row.",
                   MetricSpace::Space,
                   {{"temporal_stride",
                     "Temporal stride δ",
                     "Temporal id step per temporal patch (VideoRoPE default 2)",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     true,
                     2.0,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double delta = params.get("temporal_stride", parameters());
    return walkLayout(
        layout, [&](const Segment& seg, double off) { return diagonalBlock(seg, off, delta); },
        name(), metricSpace());
  }
};

const PositionDesign& videoRopeDesign() {
  static const VideoRopeDesign d;
  return d;
}

}  // namespace ropescope::detail
