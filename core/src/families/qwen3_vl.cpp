// Qwen3-VL: a video is one block per temporal patch, "<t seconds><vision_start> frame
// <vision_end>", every frame at t = its start (time lives in the timestamp text). Rotary:
// interleaved MRoPE [24,20,20] over head dim 128, base 5e6, NeoX (released
// Qwen/Qwen3-VL-8B-Instruct: rope_theta 5000000, mrope_section [24,20,20], mrope_interleaved).
// Token ids: Qwen3VLConfig defaults (image 151655, video 151656, vision_start 151652,
// vision_end 151653).
#include "family_base.h"

namespace ropescope::detail {

namespace {

// Qwen3-VL preprocessor_config.json on the Hugging Face hub (e.g. Qwen3-VL-2B / -8B -Instruct):
// "size": {"longest_edge": 16777216, "shortest_edge": 65536}, "patch_size": 16, "merge_size": 2,
// "temporal_patch_size": 2, image_processor_type Qwen2VLImageProcessorFast. The Qwen2-VL
// processor reads shortest_edge / longest_edge as min_pixels / max_pixels.
ImageGridSettings qwen3VlProcessor() {
  ImageGridSettings s;
  s.patch = 16;
  s.merge = 2;
  s.minPixels = 65536;     // 256 * 256
  s.maxPixels = 16777216;  // 4096 * 4096
  return s;
}

}  // namespace

const ModelFamily& qwen3VlFamily() {
  static const FamilyDescriptor f(
      {"qwen3-vl",
       "Qwen3-VL",
       {"qwen3_vl", "qwen3_vl_moe"},
       familyFrequency("interleaved", {24, 20, 20}, 128, 0, 5e6, PairLayout::NeoX),
       {151655, 151656, 151652, 151653, -1, -1, -1, -1},
       VideoTokens::FrameBlocks,
       1,
       qwen3VlProcessor(),
       {}});
  return f;
}

const PositionDesign& qwen3VlDesign() {
  static const FamilyDesign d(
      "qwen3-vl", "Qwen3-VL (transformers)",
      "Qwen3-VL get_rope_index: every image and video frame a block at t = its start.",
      VideoTime::PerFrame);
  return d;
}

}  // namespace ropescope::detail
