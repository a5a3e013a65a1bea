// ERNIE-4.5-VL: one block per image or video, t_rel = k over the video's LLM frames (the vision
// tower merges 2 frames into one: temporal_merge_size 2). Rotary: the "ernie" plan (h/w
// alternating, t lowest; mrope_section [22,22,20]) over head dim 128, base 5e5, GPT-J pairs
// (released baidu/ERNIE-4.5-VL-28B-A3B-PT). Token ids: Ernie4_5_VLMoeConfig defaults
// (transformers models/ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py: image 100295, video
// 103367, image start/end 101304/101305, video start/end 101306/101307). model_type
// "ernie4_5_vl_moe" in transformers, "ernie4_5_moe_vl" in the original remote-code config.
#include "family_base.h"

namespace ropescope::detail {

namespace {

// transformers models/ernie4_5_vl_moe/image_processing_ernie4_5_vl_moe.py: size
// {"shortest_edge": 56 * 56, "longest_edge": 28 * 28 * 6177}, patch_size 14, merge_size 2.
ImageGridSettings ernie45VlProcessor() {
  ImageGridSettings s;
  s.minPixels = 56 * 56;
  s.maxPixels = 28 * 28 * 6177;
  s.rule = ResizeRule::Ernie;
  return s;
}

}  // namespace

const ModelFamily& ernie45VlFamily() {
  static const FamilyDescriptor f(
      {"ernie4.5-vl",
       "ERNIE-4.5-VL",
       {"ernie4_5_vl_moe", "ernie4_5_moe_vl"},
       familyFrequency("ernie", {20, 22, 22}, 128, 0, 5e5, PairLayout::GptJ),
       {100295, 103367, -1, -1, 101304, 101305, 101306, 101307},
       VideoTokens::OneBlock,
       2,
       ernie45VlProcessor(),
       {},
       // The released config lists mrope_section as h, w, t ([22, 22, 20]); ERNIE's own
       // (remote-code) config gives text_config.freq_allocation t pairs instead, h and w
       // sharing the rest (transformers' converter writes [22, 22, 20] for 20).
       ConfigQuirks{.sectionsHwt = true, .freqAllocation = true}});
  return f;
}

const PositionDesign& ernie45VlDesign() {
  static const FamilyDesign d(
      "ernie4.5-vl", "ERNIE-4.5-VL (transformers)",
      "ERNIE-4.5-VL get_rope_index: (s + k, s + row, s + col) per block, under the rule set.",
      VideoTime::FrameIndex);
  return d;
}

}  // namespace ropescope::detail
