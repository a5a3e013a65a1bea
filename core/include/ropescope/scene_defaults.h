// The defaults of a new Scene that more than one struct or table needs, each written once: the
// member initialisers (Scene, FrequencySpec, RotaryConfig, RopeInputs) and the field table read
// these constants. Defaults only one struct holds (image grid, AGE) stay its initialisers.
#pragma once

namespace ropescope {

// The position design of a new scene (scene_fields.h "design"): Circle-RoPE.
inline constexpr const char* kDefaultDesign = "circle";
// The frequency plan of a new scene ("plan"): Qwen2-VL's M-RoPE.
inline constexpr const char* kDefaultPlan = "mrope";
// The rotary of a new scene: Qwen2.5-VL-7B's head dim ("head_dim") and rope_theta ("base",
// resources/models/qwen2.5-vl-7b/config.json).
inline constexpr int kDefaultHeadDim = 128;
inline constexpr double kDefaultRopeBase = 1e6;
// The multihead plan's KV heads ("kv_heads"), as in the Revisiting MHRoPE example
// (docs/math.md#frequency-plans: sections [2,3,3] of 8).
inline constexpr int kDefaultKvHeads = 8;

}  // namespace ropescope
