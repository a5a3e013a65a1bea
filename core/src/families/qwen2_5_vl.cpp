// Qwen2.5-VL: as Qwen2-VL, but a video's t_rel = k * seconds per grid * tokens_per_second
// (vision_config.tokens_per_second 2 in the released configs), with the rule set's casts. Rotary
// and token ids as Qwen2-VL (released Qwen/Qwen2.5-VL-7B-Instruct: mrope_section
// [16,24,24], rope_theta 1000000, image_token_id 151655, video_token_id 151656,
// vision_start_token_id 151652, vision_end_token_id 151653).
#include "family_base.h"

namespace ropescope::detail {

const ModelFamily& qwen25VlFamily() {
  static const FamilyDescriptor f(
      {"qwen2.5-vl",
       "Qwen2.5-VL",
       {"qwen2_5_vl"},
       familyFrequency("mrope", {16, 24, 24}, 128, 0, 1e6, PairLayout::NeoX),
       {151655, 151656, 151652, 151653, -1, -1, -1, -1},
       VideoTokens::OneBlock,
       1,
       // Qwen2.5-VL's processor: the defaults of ImageGridSettings (image_grid.h, from its
       // preprocessor_config.json: patch 14, merge 2, min_pixels 56 * 56, max_pixels
       // 28 * 28 * 16384).
       ImageGridSettings{},
       {},
       // A video's time scale: vision_config.tokens_per_second (2 in the released configs).
       ConfigQuirks{.needsTokensPerSecond = true}});
  return f;
}

const PositionDesign& qwen25VlDesign() {
  static const FamilyDesign d("qwen2.5-vl", "Qwen2.5-VL (transformers)",
                              "Qwen2.5-VL get_rope_index: video t in seconds x tokens_per_second, "
                              "under the chosen rule set.",
                              VideoTime::Seconds);
  return d;
}

}  // namespace ropescope::detail
