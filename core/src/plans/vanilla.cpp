// Vanilla RoPE: every pair follows the one (temporal) index.
#include "plan_base.h"

namespace ropescope::detail {

class VanillaPlan final : public PlanBase {
 public:
  VanillaPlan() : PlanBase("vanilla", "Vanilla 1-D", "All pairs rotate with the t index.", false) {}
  std::vector<int> defaultSections(int) const override { return {}; }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    return std::vector<Axis>(spec.rotary.pairCount(), Axis::T);
  }
};

const FrequencyPlan& vanillaPlan() {
  static const VanillaPlan p;
  return p;
}

}  // namespace ropescope::detail
