// Qwen2.5-VL M-RoPE ids: (off + tau(k), off + row, off + col) with absolute-time temporal ids
// tau(k) = floor(k * (2 / fps) * tokens_per_second) (the fixed Hugging Face rule).
#include <cmath>

#include "design_base.h"

namespace ropescope::detail {

class MropeDesign final : public DesignBase {
 public:
  MropeDesign()
      : DesignBase(
            "mrope", "M-RoPE (Qwen2.5-VL)",
            "3-D ids (t, h, w) offset by the block start; text resumes after the block's max.",
            MetricSpace::Space,
            {{"fps",
              "Video fps",
              "Frames per second the video was sampled at (2 frames per "
              "temporal patch)",
              ParameterSpec::Kind::Number,
              0.0,
              240.0,
              true,
              2.0,
              {}},
             {"tokens_per_second",
              "Tokens per second",
              "Temporal ids per second of video (Qwen2.5-VL config: 2; 1 with fps 2 gives "
              "Qwen2-VL's t = k)",
              ParameterSpec::Kind::Number,
              0.0,
              kMaxTokensPerSecond,
              true,
              2.0,
              {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double secondsPerGrid = 2.0 / params.get("fps", parameters());
    const double tps = params.get("tokens_per_second", parameters());
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          const bool still = seg.kind == SegmentKind::Image;
          // A video's own seconds per grid (second_per_grid_ts) wins over the fps parameter.
          const double spg = seg.secondsPerGrid > 0.0 ? seg.secondsPerGrid : secondsPerGrid;
          return gridBlock(
              seg, off, [&](int k) { return still ? 0.0 : std::floor(k * spg * tps); }, false);
        },
        name(), metricSpace());
  }
};

const PositionDesign& mropeDesign() {
  static const MropeDesign d;
  return d;
}

}  // namespace ropescope::detail
