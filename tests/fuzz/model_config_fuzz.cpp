// Fuzz target: the model config reader (modelConfigFromJson, what readModelConfig runs on a
// checkpoint's config.json). The input is the config; a second time, after a valid Qwen2.5-VL
// config, it is the preprocessor config. A config that reads must resolve its frequency plan
// and make a valid scene.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/model_config.h"

using namespace ropescope;

namespace {

const char* kConfig = R"({"model_type": "qwen2_5_vl", "hidden_size": 3584,
  "num_attention_heads": 28, "rope_theta": 1000000.0,
  "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
  "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "tokens_per_second": 2}})";

void check(const ModelConfig& m) {
  try {
    resolvePairs(m.frequency);
    validateScene(applyModel(defaultScene(), m));
  } catch (const InputError& e) {
    fuzz::bug(std::string("a config that reads makes an invalid scene: ") + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check(modelConfigFromJson(text, {}, {}, "fuzz"));
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
  }
  try {  // a config with a rope block per layer type, another layer type than the default
    check(modelConfigFromJson(text, {}, {}, "fuzz", "sliding_attention"));
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
  }
  try {
    check(modelConfigFromJson(kConfig, text, text, "fuzz"));
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
  }
  return 0;
}
