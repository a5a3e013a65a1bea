// Fuzz target: the processor-output reader (tokensFromJson, what readTokensFile runs on a
// file) and layoutFromTokens under one model of each token form (one block, per-frame blocks,
// GLM's frames as images, ERNIE's merged frames). A layout that is made holds every token once,
// and the family's ids compute on it (or refuse it with an InputError).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"

using namespace ropescope;

namespace {

// Small ids so that fuzzed inputs hit them: image 5, video 6, vision start 3 / end 4 (Qwen),
// begin/end of image 3/4 and of video 7/8 (GLM, ERNIE).
const std::vector<ModelConfig>& models() {
  static const std::vector<ModelConfig> m = [] {
    const std::string vision = R"("vision_config": {"patch_size": 14, "spatial_merge_size": 2,
      "tokens_per_second": 2})";
    std::vector<ModelConfig> out;
    out.push_back(modelConfigFromJson(
        R"({"model_type": "qwen2_5_vl", "hidden_size": 128, "num_attention_heads": 1,
        "rope_theta": 1e6, "rope_scaling": {"mrope_section": [16, 24, 24]},
        "image_token_id": 5, "video_token_id": 6, "vision_start_token_id": 3,
        "vision_end_token_id": 4, )" +
        vision + "}"));
    out.push_back(modelConfigFromJson(
        R"({"model_type": "qwen3_vl", "text_config": {"head_dim": 128, "rope_theta": 5e6,
        "rope_scaling": {"mrope_section": [24, 20, 20], "mrope_interleaved": true}},
        "image_token_id": 5, "video_token_id": 6, "vision_start_token_id": 3,
        "vision_end_token_id": 4, )" +
        vision + "}"));
    out.push_back(modelConfigFromJson(
        R"({"model_type": "glm4v", "hidden_size": 4096, "num_attention_heads": 32,
        "partial_rotary_factor": 0.5, "rope_theta": 1e4,
        "rope_scaling": {"mrope_section": [8, 12, 12]}, "image_token_id": 5,
        "video_token_id": 6, "image_start_token_id": 3, "image_end_token_id": 4,
        "video_start_token_id": 7, "video_end_token_id": 8, )" +
        vision + "}"));
    out.push_back(modelConfigFromJson(
        R"({"model_type": "ernie4_5_vl_moe", "text_config": {"hidden_size": 2560,
        "num_attention_heads": 20, "rope_parameters": {"rope_theta": 5e5,
        "mrope_section": [22, 22, 20]}}, "image_token_id": 5, "video_token_id": 6,
        "image_start_token_id": 3, "image_end_token_id": 4, "video_start_token_id": 7,
        "video_end_token_id": 8, )" +
        vision + "}"));
    return out;
  }();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  TokenInput in;
  try {
    in = tokensFromJson(text, "fuzz");
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    return 0;
  }
  if (in.inputIds.empty()) fuzz::bug("a tokens file that reads has no tokens");
  for (const ModelConfig& m : models()) {
    Layout layout;
    try {
      layout = layoutFromTokens(in, m);
    } catch (const InputError& e) {
      fuzz::checkMessage(e);
      continue;
    }
    if (layout.tokenCount() != in.inputIds.size())
      fuzz::bug("layout holds " + std::to_string(layout.tokenCount()) + " tokens of " +
                std::to_string(in.inputIds.size()));
    try {
      findDesign(m.family).ids(layout, {});
    } catch (const InputError& e) {
      fuzz::checkMessage(e);
    }
  }
  return 0;
}
