// ERNIE-4.5-VL's 3-D rotary: over the high frequencies h and w alternate (h on even slots, w on
// odd ones), the lowest band is t; slot k keeps theta^(-2k/rotary dim). Sections t,h,w
// [20,22,22] for the released head dim 128 (config mrope_section [22,22,20] lists h,w,t). The
// slot map is VideoRoPE's official one; only the default split differs.
#include "plan_base.h"

namespace ropescope::detail {

std::vector<Axis> videoRopeOfficialMap(const FrequencySpec& spec);

class ErniePlan final : public PlanBase {
 public:
  ErniePlan()
      : PlanBase("ernie", "ERNIE-4.5-VL (h,w alternate, t lowest)",
                 "h on even and w on odd high-frequency slots, t on the lowest band (ERNIE-4.5-VL "
                 "[20,22,22]).",
                 true) {}
  std::vector<int> defaultSections(int n) const override {
    const int t = n * 5 / 16;  // 20 of 64
    const int hw = (n - t) / 2;
    return {n - 2 * hw, hw, hw};
  }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    return videoRopeOfficialMap(spec);
  }
};

const FrequencyPlan& erniePlan() {
  static const ErniePlan p;
  return p;
}

}  // namespace ropescope::detail
