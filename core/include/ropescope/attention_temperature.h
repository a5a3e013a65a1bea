// Llama 4's attention temperature on its NoPE layers (attn_temperature_tuning): the query of the
// token at 0-based position p is multiplied by 1 + attn_scale * ln(1 + floor((p + 1) /
// floor_scale)). transformers' Llama4TextAttention (arXiv 2501.19399's scalable softmax, as Meta
// ships it).
#pragma once

namespace ropescope {

struct AttentionTemperature {
  double floorScale = 8192.0;  // floor_scale: tokens per step of the floor
  double attnScale = 0.1;      // attn_scale: the growth per ln step
  bool operator==(const AttentionTemperature&) const = default;
};

// The factor q is multiplied by at 0-based position `position` (>= 0), in float64.
double attentionTemperature(const AttentionTemperature& t, long long position);
// The same as transformers computes it in float32 (positions.float(), floor, log1p, * and +
// each rounded to float32).
float attentionTemperatureF32(const AttentionTemperature& t, long long position);

}  // namespace ropescope
