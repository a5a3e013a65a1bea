#include "ropescope/attention_temperature.h"

#include <cmath>

namespace ropescope {

double attentionTemperature(const AttentionTemperature& t, long long position) {
  const double steps = std::floor((static_cast<double>(position) + 1.0) / t.floorScale);
  return std::log1p(steps) * t.attnScale + 1.0;
}

float attentionTemperatureF32(const AttentionTemperature& t, long long position) {
  // positions.float() + 1.0, / floor_scale (a Python number met by a float32 tensor: rounded to
  // float32 first), floor, log1p, * attn_scale, + 1.0: each step a float32 result.
  const float p = static_cast<float>(position);
  const float q = (p + 1.0f) / static_cast<float>(t.floorScale);
  const float steps = std::floor(q);
  const float lg = std::log1p(steps);
  const float scaled = lg * static_cast<float>(t.attnScale);
  return scaled + 1.0f;
}

}  // namespace ropescope
