// PyPE, Pyramid-descent Visual Position Encoding (Chen et al., arXiv 2501.10967, §3; code
// SakuraTroyChen/PyPE, LLaVA/llava/pype_utils/pype.py). A picture's tokens are indexed by ring,
// from the periphery to the centre: p = 1 + min(r, c, H-1-r, W-1-c), so the border is 1 and the
// centre the largest; the id is s - 1 + p, s the block's first position (the border sits at s).
// Pyramid descent: every `descent_interval` layers one more ring is merged into the centre (the
// repository's preset_pype_top_img_token_len grows by one every jump_num layers), so at layer L
// the ring index is capped at max(R - floor(L / interval), 0), R = floor((min(H,W) - 1) / 2) the
// innermost ring. Text after the block resumes one past its largest id, s + min(R, cap) + 1 —
// the repository's arange(img_token_pos + preset_pype_img_token_len, ...). For odd sides the
// repository's cap H//2 - 1 at layer 0 merges the centre cell into the ring around it; it only
// ran 24x24 grids, where both agree, and this design keeps the paper's uncapped formula. Videos
// (not in the paper): each frame is one PyPE picture, frame k starting one past frame k-1's
// largest id. The repository's attention mask among image tokens, built from these rings, is
// not modelled.
#include <algorithm>
#include <cmath>

#include "design_base.h"

namespace ropescope::detail {

class PypeDesign final : public DesignBase {
 public:
  PypeDesign()
      : DesignBase("pype", "PyPE (pyramid descent)",
                   "1-D ids by ring from the border inwards: s - 1 + 1 + min(r, c, H-1-r, W-1-c), "
                   "the inner rings merged as the layer deepens; text one past the largest id.",
                   MetricSpace::Line,
                   {{"layer",
                     "Layer",
                     "Decoder layer whose ids are shown (0 = the first: every ring distinct)",
                     ParameterSpec::Kind::Integer,
                     0,
                     1000,
                     false,
                     0,
                     {}},
                    {"descent_interval",
                     "Descent interval",
                     "Layers between two merges of the innermost ring into the centre (jump_num)",
                     ParameterSpec::Kind::Integer,
                     1,
                     1000,
                     false,
                     1,
                     {}}}) {}

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    const auto specs = parameters();
    const int merged = static_cast<int>(params.get("layer", specs)) /
                       static_cast<int>(params.get("descent_interval", specs));
    return walkLayout(
        layout,
        [&](const Segment& seg, double off) {
          BlockIds b;
          b.ids.reserve(seg.tokenCount());
          const int inner = (std::min(seg.rows, seg.cols) - 1) / 2;
          const int cap = std::max(inner - merged, 0);
          for (int f = 0; f < seg.frames; ++f) {
            const double s = off + f * (cap + 1.0);
            for (int r = 0; r < seg.rows; ++r)
              for (int c = 0; c < seg.cols; ++c) {
                const int ring = std::min({r, c, seg.rows - 1 - r, seg.cols - 1 - c});
                const double p = s + std::min(ring, cap);
                b.ids.push_back({p, p, p});
              }
          }
          b.walkMax = off + (seg.frames - 1) * (cap + 1.0) + cap;
          return b;
        },
        name(), metricSpace());
  }
};

const PositionDesign& pypeDesign() {
  static const PypeDesign d;
  return d;
}

}  // namespace ropescope::detail
