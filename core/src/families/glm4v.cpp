// GLM-4.1V / GLM-4.5V: video frames are image tokens inside <|begin_of_video|>..<|end_of_video|>,
// per temporal patch "<|begin_of_image|> frame <|end_of_image|> seconds"; every frame at t = its
// start. Rotary: chunked [8,12,12] on the first 64 dims of head dim 128 (partial_rotary_factor
// 0.5), base 1e4, GPT-J pairs (released zai-org/GLM-4.1V-9B-Thinking). Token ids:
// Glm4vConfig defaults (transformers models/glm4v/configuration_glm4v.py: image 151343, video
// 151344, begin/end of image 151339/151340, begin/end of video 151341/151342; GLM-4.5V
// (glm4v_moe) uses image 151363, video 151364, Glm4vMoeConfig defaults).
#include "family_base.h"

namespace ropescope::detail {

namespace {

// transformers models/glm4v/image_processing_glm4v.py, Glm4vImageProcessor: size
// {"shortest_edge": 112 * 112, "longest_edge": 28 * 28 * 15000}, patch_size 14,
// temporal_patch_size 2, merge_size 2.
ImageGridSettings glm4vProcessor() {
  ImageGridSettings s;
  s.minPixels = 112 * 112;
  s.maxPixels = 28 * 28 * 15000;
  s.rule = ResizeRule::Glm;
  return s;
}

}  // namespace

const ModelFamily& glm4vFamily() {
  static const FamilyDescriptor f(
      {"glm4v",
       "GLM-4.1V / GLM-4.5V",
       {"glm4v", "glm4v_moe"},
       familyFrequency("mrope", {8, 12, 12}, 128, 64, 1e4, PairLayout::GptJ),
       {151343, 151344, -1, -1, 151339, 151340, 151341, 151342},
       VideoTokens::FramesAsImages,
       1,
       glm4vProcessor(),
       {}});
  return f;
}

const PositionDesign& glm4vDesign() {
  static const FamilyDesign d(
      "glm4v", "GLM-4.1V / 4.5V (transformers)",
      "GLM-4V get_rope_index: every image and video frame a block at t = its start.",
      VideoTime::PerFrame);
  return d;
}

}  // namespace ropescope::detail
