// Partial YaRN (Chaichana et al., arXiv 2510.15231, §3; code scb-10x/partial-yarn,
// models/modeling_qwen2.py, Qwen2PartialYarnRotaryEmbedding): context extension of the audio
// tokens only. An audio run of L tokens starting at position a is squeezed, when L >= A (the
// audio length the model was trained on: 750 tokens, 30 s of Qwen2-Audio), onto A positions,
// a + j·(A-1)/(L-1); text after it resumes at a + A. Only the pairs from
// interpolation_start_dim on use these squeezed positions; the pairs below it keep the plain
// running index everywhere. Two position tracks, then, which ropescope's (t, h, w) ids carry
// exactly: t is the plain running index, h = w the squeezed one, and the frequency plan
// `mrope` with sections S,R1,R2 (S = interpolation_start_dim, R1 + R2 the remaining pairs)
// turns pairs below S with t and the rest with h or w — the repository's split. Text after a
// long audio run therefore has t != h. What the pair table cannot carry: the attention
// temperature (the repository divides the audio tokens' cos and sin by sqrt(τ), a per-token
// scale of the logits, not a frequency or a position), and the repository's one-audio limit
// (with two audio runs it changes nothing; here each run is squeezed on its own). Visual blocks
// (not in the paper) take the running index on all axes, as `hard`. rope_delta is t's (0).
#include <algorithm>

#include "design_base.h"

namespace ropescope::detail {

class PartialYarnDesign final : public DesignBase {
 public:
  PartialYarnDesign()
      : DesignBase("partial-yarn", "Partial YaRN (audio only)",
                   "t: the running index; h = w: audio runs of L >= A tokens squeezed onto A "
                   "positions, text after at a + A. Plan mrope with sections S,R1,R2 "
                   "(S = interpolation_start_dim).",
                   MetricSpace::Space,
                   {{"audio_context",
                     "Audio context A",
                     "Audio tokens the model was trained on (Qwen2-Audio: 750, 30 s)",
                     ParameterSpec::Kind::Integer,
                     1,
                     1e7,
                     false,
                     750,
                     {}}}) {}

  std::string suggestedPlan() const override { return "mrope"; }

  PositionIds ids(const Layout& layout, const ParameterSet& params) const override {
    validateParameters(params, parameters());
    validateLayout(layout);
    const double a = params.get("audio_context", parameters());
    PositionIds out;
    out.design = name();
    out.space = metricSpace();
    const std::size_t n = layout.tokenCount();
    out.ids.reserve(n);
    out.tokens.reserve(n);
    double plain = 0.0, squeezed = 0.0;  // the next position of each track
    for (std::size_t s = 0; s < layout.segments.size(); ++s) {
      const Segment& seg = layout.segments[s];
      const int segIndex = static_cast<int>(s);
      if (seg.isAudio() && seg.length >= a) {
        const double step = seg.length > 1 ? (a - 1.0) / (seg.length - 1.0) : 0.0;
        for (int j = 0; j < seg.length; ++j) {
          const double q = squeezed + j * step;
          out.ids.push_back({plain + j, q, q});
          out.tokens.push_back({Modality::Audio, segIndex, j, -1, -1});
        }
        plain += seg.length;
        squeezed += a;
        continue;
      }
      const std::size_t len =
          seg.isVisual() ? seg.tokenCount() : static_cast<std::size_t>(seg.length);
      std::size_t k = 0;
      const Modality m = seg.isAudio()                    ? Modality::Audio
                         : seg.isText()                   ? Modality::Text
                         : seg.kind == SegmentKind::Image ? Modality::Image
                                                          : Modality::Video;
      for (int f = 0; f < (seg.isVisual() ? seg.frames : 1); ++f)
        for (int r = 0; r < (seg.isVisual() ? seg.rows : 1); ++r)
          for (int c = 0; c < (seg.isVisual() ? seg.cols : seg.length); ++c, ++k) {
            out.ids.push_back({plain + k, squeezed + k, squeezed + k});
            if (seg.isVisual())
              out.tokens.push_back({m, segIndex, f, r, c});
            else
              out.tokens.push_back({m, segIndex, seg.isAudio() ? c : -1, -1, -1});
          }
      plain += static_cast<double>(len);
      squeezed += static_cast<double>(len);
    }
    out.ropeDelta = 0.0;  // t's: the plain track advances one per token
    return out;
  }
};

const PositionDesign& partialYarnDesign() {
  static const PartialYarnDesign d;
  return d;
}

}  // namespace ropescope::detail
