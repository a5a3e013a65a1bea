// M-RoPE sections (Qwen2/2.5-VL): contiguous t | h | w blocks of pairs, t on the highest
// frequencies, e.g. [16, 24, 24].
#include "plan_base.h"

namespace ropescope::detail {

class MropePlan final : public PlanBase {
 public:
  MropePlan()
      : PlanBase("mrope", "M-RoPE sections",
                 "Contiguous t|h|w blocks of pairs (Qwen2.5-VL [16,24,24]).", true) {}
  std::vector<int> defaultSections(int n) const override { return quarterTemporalSections(n); }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    std::vector<Axis> map;
    const Axis axes[3] = {Axis::T, Axis::H, Axis::W};
    for (int a = 0; a < 3; ++a) map.insert(map.end(), spec.sections[a], axes[a]);
    return map;
  }
};

const FrequencyPlan& mropePlan() {
  static const MropePlan p;
  return p;
}

std::vector<int> quarterTemporalSections(int n) {
  const int t = n / 4;
  const int h = (n - t) / 2;
  return {t, h, n - t - h};
}

}  // namespace ropescope::detail
