// MM-RoPE (Lumos-1, arXiv 2507.08801): the pairs cycle t,t,h,w,h,w,h,w by p mod 8, so every
// band of eight neighbouring frequencies holds two t, three h and three w pairs (t 16, h 24,
// w 24 of 64).
#include "plan_base.h"

namespace ropescope::detail {

class MmRopePlan final : public PlanBase {
 public:
  MmRopePlan()
      : PlanBase("mm-rope", "MM-RoPE (Lumos-1)",
                 "Pairs cycle t,t,h,w,h,w,h,w over the spectrum (p mod 8).", false) {}
  std::vector<int> defaultSections(int) const override { return {}; }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    static const Axis cycle[8] = {Axis::T, Axis::T, Axis::H, Axis::W,
                                  Axis::H, Axis::W, Axis::H, Axis::W};
    std::vector<Axis> map(spec.rotary.pairCount());
    for (int p = 0; p < static_cast<int>(map.size()); ++p) map[p] = cycle[p % 8];
    return map;
  }
};

const FrequencyPlan& mmRopePlan() {
  static const MmRopePlan p;
  return p;
}

}  // namespace ropescope::detail
