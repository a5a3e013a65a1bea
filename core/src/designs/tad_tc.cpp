// TAD-RoPE as the TC-LLaVA paper defines it (Gao et al., arXiv 2409.03206, §3, Temporal-Aware
// Dual RoPE): the rotary angle of a token is (n + γ·f)·θ, n its running index in the sequence
// and f the frame of a video token. In ropescope's (t, h, w) model that is one 1-D id on all
// three axes, so every frequency plan gives the same angles: a visual token k of a block that
// starts at off (the k-th token in frame -> row -> col order, of frame f) gets off + k + γ·f.
// With γ = 0 this is `hard`. Text after a block: the paper leaves it to the running index; the
// `text_resume` choice offers both readings (one past the block's largest id, as every
// ropescope design walks, or the plain running index n, text before and after the video then
// keeping exactly the distances plain RoPE gives them).
#include "design_base.h"

namespace ropescope::detail {

class TadTcDesign final : public DesignBase {
 public:
  TadTcDesign()
      : DesignBase("tad-tc", "TAD-RoPE (TC-LLaVA paper)",
                   "1-D ids: a visual token's running index plus γ times its frame, "
                   "off + k + γ·f on all axes (TC-LLaVA's angle (n + γ·f)·θ).",
                   MetricSpace::Line,
                   {{"gamma",
                     "γ (temporal weight)",
                     "Weight of the frame index added to the running index",
                     ParameterSpec::Kind::Number,
                     0.0,
                     1000.0,
                     false,
                     1.0,
                     {}},
                    {"text_resume",
                     "Text after a block",
                     "after_block: one past the block's largest id; running: the running index n",
                     ParameterSpec::Kind::Choice,
                     0,
                     1,
                     false,
                     0,
                     {"after_block", "running"}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const double gamma = params.get("gamma", parameters());
    const bool running = params.get("text_resume", parameters()) == 1.0;
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          BlockIds b;
          const std::size_t perFrame = static_cast<std::size_t>(seg.rows) * seg.cols;
          const std::size_t n = seg.tokenCount();
          b.ids.reserve(n);
          for (std::size_t k = 0; k < n; ++k) {
            const double f = static_cast<double>(k / perFrame);
            const double p = off + static_cast<double>(k) + gamma * f;
            b.ids.push_back({p, p, p});
          }
          const double last = off + static_cast<double>(n - 1);
          b.walkMax = running ? last : last + gamma * (seg.frames - 1);
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& tadTcDesign() {
  static const TadTcDesign d;
  return d;
}

}  // namespace ropescope::detail
