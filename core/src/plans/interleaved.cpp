// Interleaved MRoPE-I (Qwen3-VL rule): all pairs start as t; pairs p = 1 mod 3 below 3*s_h
// become h, pairs p = 2 mod 3 below 3*s_w become w. [24,20,20] gives thw x20 then tttt.
#include "plan_base.h"

namespace ropescope::detail {

class InterleavedPlan final : public PlanBase {
 public:
  InterleavedPlan()
      : PlanBase("interleaved", "MRoPE-I (interleaved)",
                 "Round-robin t,h,w over the spectrum (Qwen3-VL [24,20,20]).", true) {}
  std::vector<int> defaultSections(int n) const override {
    const int hw = n * 20 / 64;
    return {n - 2 * hw, hw, hw};
  }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    const int n = spec.rotary.pairCount();
    std::vector<Axis> map(n, Axis::T);
    for (int p = 0; p < n; ++p) {
      if (p % 3 == 1 && p < 3 * spec.sections[1]) map[p] = Axis::H;
      if (p % 3 == 2 && p < 3 * spec.sections[2]) map[p] = Axis::W;
    }
    return map;
  }
};

const FrequencyPlan& interleavedPlan() {
  static const InterleavedPlan p;
  return p;
}

}  // namespace ropescope::detail
