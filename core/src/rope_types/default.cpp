// rope_type "default": the plain ladder 1 / base^(2i/dim), attention factor 1. A config's
// "mrope" (Qwen2-VL's legacy name) is read as this type.
#include "rope_type_base.h"

namespace ropescope::detail {

class DefaultRope final : public RopeTypeBase {
 public:
  DefaultRope() : RopeTypeBase("default", "No scaling: inv_freq = 1 / base^(2i/dim).", {}) {}
  ScaledFrequencies compute(const RopeInputs& in) const override {
    return bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      auto inv = defaultInvFreq<F>(in.base, in.rotaryDim);
      out->scaling.assign(inv.size(), PairScaling::Unchanged);
      return inv;
    });
  }
};

const RopeType& defaultRopeType() {
  static const DefaultRope t;
  return t;
}

}  // namespace ropescope::detail
