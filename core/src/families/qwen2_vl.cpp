// Qwen2-VL: one block per image or video, video t_rel = k (no seconds). Rotary: M-RoPE chunked
// [16,24,24] over head dim 128, base 1e6, NeoX pairs (released Qwen/Qwen2-VL-7B-Instruct:
// rope_scaling.mrope_section [16,24,24], rope_theta 1000000). Token ids: Qwen2VLConfig defaults
// (transformers models/qwen2_vl/configuration_qwen2_vl.py: image 151655, video 151656,
// vision_start 151652, vision_end 151653).
#include "family_base.h"

namespace ropescope::detail {

const ModelFamily& qwen2VlFamily() {
  static const FamilyDescriptor f(
      {"qwen2-vl",
       "Qwen2-VL",
       {"qwen2_vl"},
       familyFrequency("mrope", {16, 24, 24}, 128, 0, 1e6, PairLayout::NeoX),
       {151655, 151656, 151652, 151653, -1, -1, -1, -1},
       VideoTokens::OneBlock,
       1,
       std::nullopt,
       "qwen2.5-vl"});  // Qwen2-VL's processor is Qwen2.5-VL's
  return f;
}

const PositionDesign& qwen2VlDesign() {
  static const FamilyDesign d(
      "qwen2-vl", "Qwen2-VL (transformers)",
      "Qwen2-VL get_rope_index: (s + k, s + row, s + col) per block, under the chosen rule set.",
      VideoTime::FrameIndex);
  return d;
}

}  // namespace ropescope::detail
