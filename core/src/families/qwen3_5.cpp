// Qwen3.5: Qwen3-VL's position rule and video form. Rotary: interleaved [11,11,10] on the first
// 64 dims of head dim 256 (partial_rotary_factor 0.25), base 1e7, NeoX (released
// Qwen/Qwen3.5-27B: head_dim 256, rope_theta 10000000, partial_rotary_factor 0.25,
// mrope_section [11,11,10]). Token ids: Qwen3_5Config defaults (transformers
// models/qwen3_5/configuration_qwen3_5.py: image 248056, video 248057, vision_start 248053,
// vision_end 248054).
#include "family_base.h"

namespace ropescope::detail {

const ModelFamily& qwen35Family() {
  static const FamilyDescriptor f(
      {"qwen3.5",
       "Qwen3.5",
       {"qwen3_5", "qwen3_5_moe"},
       familyFrequency("interleaved", {11, 11, 10}, 256, 64, 1e7, PairLayout::NeoX),
       {248056, 248057, 248053, 248054, -1, -1, -1, -1},
       VideoTokens::FrameBlocks,
       1,
       std::nullopt,
       "qwen3-vl"});  // Qwen3.5's processor is Qwen3-VL's
  return f;
}

const PositionDesign& qwen35Design() {
  static const FamilyDesign d(
      "qwen3.5", "Qwen3.5 (transformers)",
      "Qwen3.5 get_rope_index: every image and video frame a block at t = its start.",
      VideoTime::PerFrame);
  return d;
}

}  // namespace ropescope::detail
