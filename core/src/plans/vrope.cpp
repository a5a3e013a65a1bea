// VRoPE (arXiv 2502.11664, johncaged/VRoPE): pair i rotates with index map i mod 4 of the vrope
// design, the maps stored as t, h, w plus the fourth, h + w - t (Axis::Mix).
#include "plan_base.h"

namespace ropescope::detail {

class VropePlan final : public PlanBase {
 public:
  VropePlan()
      : PlanBase("vrope", "VRoPE (four index maps)",
                 "Pairs cycle over VRoPE's four maps by p mod 4: t, h, w (the first three, as "
                 "stored) and h+w-t (the fourth).",
                 false) {}
  std::vector<int> defaultSections(int) const override { return {}; }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    std::vector<Axis> map(spec.rotary.pairCount());
    for (int p = 0; p < static_cast<int>(map.size()); ++p) map[p] = kCoordinateAxes[p % 4];
    return map;
  }
};

const FrequencyPlan& vropePlan() {
  static const VropePlan p;
  return p;
}

}  // namespace ropescope::detail
