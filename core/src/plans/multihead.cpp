// MHRoPE (Revisiting paper): whole KV heads per axis, sections count KV heads ([2,3,3] of 8);
// inside a head every pair uses that head's axis; unassigned heads are NoPE.
#include "plan_base.h"

namespace ropescope::detail {

class MultiheadPlan final : public PlanBase {
 public:
  MultiheadPlan()
      : PlanBase("multihead", "MHRoPE (per head)",
                 "Each KV head rotates with one axis over the full spectrum ([2,3,3] of 8 heads).",
                 true) {}
  std::vector<int> defaultSections(int) const override { return {2, 3, 3}; }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    Axis axis = Axis::None;
    int start = 0;
    const Axis axes[3] = {Axis::T, Axis::H, Axis::W};
    for (int a = 0; a < 3; ++a) {
      if (spec.kvHead >= start && spec.kvHead < start + spec.sections[a]) axis = axes[a];
      start += spec.sections[a];
    }
    return std::vector<Axis>(spec.rotary.pairCount(), axis);
  }
};

const FrequencyPlan& multiheadPlan() {
  static const MultiheadPlan p;
  return p;
}

}  // namespace ropescope::detail
