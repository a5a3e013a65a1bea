// rope_type "dynamic" (dynamic NTK): the base grows with the sequence once it passes
// max_position_embeddings: base * (factor * L / max - (factor - 1))^(dim / (dim - 2)) for
// L = max position id + 1. Built without a sequence (at init) the factor changes nothing; the
// forward's update computes the grown base in float32 tensors, the init in Python floats.
#include "rope_type_base.h"

namespace ropescope::detail {

class DynamicRope final : public RopeTypeBase {
 public:
  DynamicRope()
      : RopeTypeBase("dynamic",
                     "Dynamic NTK: past max_position_embeddings the base grows with the sequence.",
                     {factorSpec("how fast the base grows past max_position_embeddings"),
                      maxPositionSpec("the length past which the base grows (the config's "
                                      "max_position_embeddings)")},
                     {"factor", "max_position_embeddings"}) {}

  bool sequenceDependent() const override { return true; }

  void validate(const RopeScaling& s, const RopeInputs& in) const override {
    if (in.rotaryDim < 4)
      throw InputError(
          "rope dynamic needs a rotary dim of at least 4 (its exponent is dim / (dim "
          "- 2); got " +
              std::to_string(in.rotaryDim) + ")",
          "rotary_dim");
    (void)s;
  }

  ScaledFrequencies compute(const RopeInputs& in) const override {
    const RopeScaling& s = *in.scaling;
    const double factor = value(s, "factor");
    const auto maxPos = static_cast<long long>(value(s, "max_position_embeddings"));
    const int dim = in.rotaryDim;
    const long long seq = s.maxPositionId >= 0 ? s.maxPositionId + 1 : 0;
    const bool grown = seq > maxPos;  // the forward's update: seq_len > max_seq_len_cached
    ScaledFrequencies r = bothPrecisions([&](auto zero, ScaledFrequencies*) {
      using F = decltype(zero);
      if (!grown) {
        // At init seq_len is max_position_embeddings: Python floats throughout.
        const double L = static_cast<double>(maxPos);
        const double b =
            in.base * std::pow((factor * L / static_cast<double>(maxPos)) - (factor - 1.0),
                               static_cast<double>(dim) / (dim - 2));
        std::vector<F> inv = powLadder<F>(b, dim / 2, dim);
        for (F& x : inv) x = F(1) / x;
        return inv;
      }
      // The update: seq_len is an int64 tensor, so the new base is a float32 tensor.
      F t = fl<F>(factor) * static_cast<F>(seq);
      t = t / fl<F>(static_cast<double>(maxPos));
      t = t - fl<F>(factor - 1.0);
      // tensor ** Python float: torch's CPU kernel raises in double, then rounds.
      t = static_cast<F>(std::pow(static_cast<double>(t), static_cast<double>(dim) / (dim - 2)));
      const F b = fl<F>(in.base) * t;
      std::vector<F> inv(static_cast<std::size_t>(dim / 2));
      for (int i = 0; i < dim / 2; ++i)
        inv[i] = F(1) / std::pow(b, static_cast<F>(2 * i) / fl<F>(dim));
      return inv;
    });
    const std::vector<double> plain = defaultInvFreq<double>(in.base, dim);
    for (std::size_t i = 0; i < plain.size(); ++i)
      r.scaling.push_back(r.invFreq64[i] == plain[i] ? PairScaling::Unchanged
                                                     : PairScaling::Scaled);
    r.switchLength = maxPos;
    r.switched = grown;
    return r;
  }
};

const RopeType& dynamicRopeType() {
  static const DynamicRope t;
  return t;
}

}  // namespace ropescope::detail
