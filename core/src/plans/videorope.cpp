// VideoRoPE's low-frequency temporal allocation: h and w alternate over the high frequencies,
// t takes the lowest band. Official map and the Revisiting repo's port (off by one).
#include "plan_base.h"

namespace ropescope::detail {

// Official: pairs 0..h+w-1 alternate h (even p), w (odd p); the rest t.
std::vector<Axis> videoRopeOfficialMap(const FrequencySpec& spec) {
  const int n = spec.rotary.pairCount();
  const int band = spec.sections[1] + spec.sections[2];
  std::vector<Axis> map(n, Axis::T);
  for (int p = 0; p < band && p < n; ++p) map[p] = p % 2 == 0 ? Axis::H : Axis::W;
  return map;
}

class VideoRopePlan final : public PlanBase {
 public:
  VideoRopePlan()
      : PlanBase("videorope", "VideoRoPE (LTA)",
                 "h,w alternate over the high frequencies, t on the lowest band (official map).",
                 true) {}
  std::vector<int> defaultSections(int n) const override { return quarterTemporalSections(n); }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    return videoRopeOfficialMap(spec);
  }
};

class VideoRopeRepoPlan final : public PlanBase {
 public:
  VideoRopeRepoPlan()
      : PlanBase("videorope-repo", "VideoRoPE (Revisiting-repo port)",
                 "Like videorope but shifted by one: pair 0 stays t (JJJYmmm/Multimodal-RoPEs).",
                 true) {}
  std::vector<int> defaultSections(int n) const override { return quarterTemporalSections(n); }
  std::vector<Axis> axisMap(const FrequencySpec& spec) const override {
    const int n = spec.rotary.pairCount();
    const int band = spec.sections[1] + spec.sections[2];
    std::vector<Axis> map(n, Axis::T);
    for (int p = 1; p < band && p < n; ++p) map[p] = p % 2 == 1 ? Axis::H : Axis::W;
    return map;
  }
};

const FrequencyPlan& videoRopePlan() {
  static const VideoRopePlan p;
  return p;
}

const FrequencyPlan& videoRopeRepoPlan() {
  static const VideoRopeRepoPlan p;
  return p;
}

}  // namespace ropescope::detail
