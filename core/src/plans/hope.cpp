// HoPE's hybrid frequency allocation: VideoRoPE's official h/w map with the temporal band set to
// frequency exactly 0 (NoPE), for text tokens too.
#include "plan_base.h"

namespace ropescope::detail {

std::vector<Axis> videoRopeOfficialMap(const FrequencySpec& spec);

class HopePlan final : public PlanBase {
 public:
  HopePlan()
      : PlanBase("hope", "HoPE (NoPE temporal)",
                 "VideoRoPE's h/w map; the temporal band has frequency 0.", true) {}
  std::vector<int> defaultSections(int n) const override { return quarterTemporalSections(n); }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    std::vector<Axis> map = videoRopeOfficialMap(spec);
    for (Axis& a : map)
      if (a == Axis::T) a = Axis::None;
    return map;
  }
};

const FrequencyPlan& hopePlan() {
  static const HopePlan p;
  return p;
}

}  // namespace ropescope::detail
