// rope_type "proportional" (Gemma 4): the ladder built over the full head dim,
// theta_i = base^(-2i/head_dim), for the first int(partial_rotary_factor * head_dim // 2) pairs;
// the pairs past that cut are not rotated (inv_freq 0). All head_dim / 2 pairs are returned,
// then divided by factor. Attention factor 1.
#include <cmath>

#include "rope_type_base.h"

namespace ropescope::detail {

class ProportionalRope final : public RopeTypeBase {
 public:
  ProportionalRope()
      : RopeTypeBase("proportional",
                     "Gemma 4: the ladder over the full head dim, pairs past the cut not rotated.",
                     {{"partial_rotary_factor",
                       "rotated share",
                       "the share of the head dim whose pairs rotate; the rest get inv_freq 0",
                       ParameterSpec::Kind::Number,
                       0.0,
                       1.0,
                       false,
                       1.0,
                       {}},
                      factorSpec("divides every frequency")}) {}

  int pairCount(const RopeInputs& in) const override { return in.headDim / 2; }

  void validate(const RopeScaling&, const RopeInputs& in) const override {
    if (in.rotaryDim != in.headDim)
      throw InputError("rope proportional builds its ladder over the full head dim " +
                           std::to_string(in.headDim) +
                           ": give the rotated share as its partial_rotary_factor, with no "
                           "rotary dim (got rotary dim " +
                           std::to_string(in.rotaryDim) + ")",
                       "rotary_dim");
  }

  // int(partial_rotary_factor * head_dim // 2): Python's float floor division.
  static int rotatedPairs(double share, int headDim) {
    return static_cast<int>(std::floor(share * headDim / 2));
  }

  ScaledFrequencies compute(const RopeInputs& in) const override {
    const RopeScaling& s = *in.scaling;
    const double factor = value(s, "factor");
    const int rotated = rotatedPairs(value(s, "partial_rotary_factor"), in.headDim);
    return bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      std::vector<F> inv(static_cast<std::size_t>(in.headDim / 2), F(0));
      const std::vector<F> pos = powLadder<F>(in.base, rotated, in.headDim);
      const bool record = out->scaling.empty();
      for (int i = 0; i < in.headDim / 2; ++i) {
        if (i < rotated) inv[i] = F(1) / pos[i];
        inv[i] /= fl<F>(factor);
        if (record)
          out->scaling.push_back(i >= rotated    ? PairScaling::NotRotated
                                 : factor == 1.0 ? PairScaling::Unchanged
                                                 : PairScaling::Scaled);
      }
      return inv;
    });
  }
};

const RopeType& proportionalRopeType() {
  static const ProportionalRope t;
  return t;
}

}  // namespace ropescope::detail
