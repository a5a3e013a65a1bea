// TAD-RoPE as the VideoRoPE repository runs it (Wiselnn570/VideoRoPE,
// videorope-transformer/modeling_videorope.py, which_rope = "tad_rope"): its
// get_time_rope_index walks the sequence as Qwen2-VL does but gives every token of frame f of a
// block at s = M + 1 the id s + f on all three axes (an image is all s); text resumes at
// s + T. That is this design's id. The repository's `tad_rope` branch then adds
// get_vanilla_rope_index (the plain running index) to it, token by token: `add_running_index`
// = 1 shows that sum, whose text ids run 0, 2, 4, ... (twice plain RoPE's spacing, even with no
// picture at all), so it breaks the convention that text alone gets 0..N-1 and is off by default.
#include "design_base.h"

namespace ropescope::detail {

class TadVideoRopeDesign final : public DesignBase {
 public:
  TadVideoRopeDesign()
      : DesignBase("tad-videorope", "TAD-RoPE (VideoRoPE code, time index)",
                   "1-D ids: every token of frame f at s + f on all axes (VideoRoPE's "
                   "time_rope index); optionally plus the running index, as its tad_rope adds.",
                   MetricSpace::Line,
                   {{"add_running_index",
                     "Add running index",
                     "Add the plain running index to every id, as the repository's tad_rope does",
                     ParameterSpec::Kind::Bool,
                     0,
                     1,
                     false,
                     0.0,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    PositionIds out = walkLayout(
        layout,
        [](const Segment& seg, double off) {
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          for (int f = 0; f < seg.frames; ++f)
            for (int j = 0; j < seg.rows * seg.cols; ++j)
              b.ids.push_back({off + f, off + f, off + f});
          b.walkMax = off + seg.frames - 1;
          return b;
        },
        name(), metricSpace());
    if (params.get("add_running_index", parameters()) == 1.0) {
      // Token i's vanilla index is i (get_vanilla_rope_index: every token one step); the next
      // decode id is n + (n + delta of the time index).
      for (std::size_t i = 0; i < out.ids.size(); ++i)
        for (double& x : out.ids[i]) x += static_cast<double>(i);
      out.ropeDelta += static_cast<double>(out.ids.size());
    }
    return out;
  }
};

const PositionDesign& tadVideoRopeDesign() {
  static const TadVideoRopeDesign d;
  return d;
}

}  // namespace ropescope::detail
