// Spatial reset (the Revisiting paper's design for MRoPE-I and MHRoPE): h and w restart at 0 in
// every visual block, t = off + k*stride; the token after the block gets the id M-RoPE would
// give it (off += max((T-1)*stride + 1, H, W)). Three published designs use these ids and differ
// in the plan they come with:
//  - mrope-reset: the Revisiting paper's, with whatever plan is chosen;
//  - omnirope: OmniRoPE of OmniGen2 (arXiv 2506.18871), chunked M-RoPE [16,24,24];
//  - ilrope: IL-RoPE of Mogao (arXiv 2505.05472), interleaved MRoPE-I [24,20,20]
//  (both as the Revisiting repository ports them).
#include "design_base.h"

namespace ropescope::detail {

namespace {

class SpatialResetDesign final : public DesignBase {
 public:
  SpatialResetDesign(std::string name, std::string title, std::string summary, std::string plan)
      : DesignBase(std::move(name), std::move(title), std::move(summary), MetricSpace::Space,
                   {{"temporal_stride",
                     "Temporal stride",
                     "Temporal id step per temporal patch",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     false,
                     1.0,
                     {}}}),
        plan_(std::move(plan)) {}

  std::string suggestedPlan() const override { return plan_; }

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

 private:
  std::string plan_;
};

}  // namespace

const PositionDesign& mropeResetDesign() {
  static const SpatialResetDesign d(
      "mrope-reset", "M-RoPE, spatial reset",
      "t = off + k*stride, h = row, w = col (local); text continues as in M-RoPE.", "");
  return d;
}

const PositionDesign& omniropeDesign() {
  static const SpatialResetDesign d(
      "omnirope", "OmniRoPE (OmniGen2)",
      "t = s + k*stride, h = row, w = col (local); s += max((T-1)*stride+1, H, W); "
      "plan: chunked M-RoPE sections [16,24,24].",
      "mrope");
  return d;
}

const PositionDesign& ilropeDesign() {
  static const SpatialResetDesign d(
      "ilrope", "IL-RoPE (Mogao)",
      "t = s + k*stride, h = row, w = col (local); s += max((T-1)*stride+1, H, W); "
      "plan: interleaved MRoPE-I sections [24,20,20].",
      "interleaved");
  return d;
}

}  // namespace ropescope::detail
