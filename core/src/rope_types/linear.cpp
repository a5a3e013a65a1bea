// rope_type "linear" (position interpolation): the default ladder divided by factor.
#include "rope_type_base.h"

namespace ropescope::detail {

class LinearRope final : public RopeTypeBase {
 public:
  LinearRope()
      : RopeTypeBase("linear", "Position interpolation: every inv_freq divided by factor.",
                     {factorSpec("divides every frequency (positions stretched factor times)")},
                     {"factor"}) {}
  ScaledFrequencies compute(const RopeInputs& in) const override {
    const double factor = value(*in.scaling, "factor");
    return bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      auto inv = defaultInvFreq<F>(in.base, in.rotaryDim);
      for (F& x : inv) x /= fl<F>(factor);  // inv_freq /= factor
      out->scaling.assign(inv.size(), factor == 1.0 ? PairScaling::Unchanged : PairScaling::Scaled);
      return inv;
    });
  }
};

const RopeType& linearRopeType() {
  static const LinearRope t;
  return t;
}

}  // namespace ropescope::detail
