#include "ropescope/text_model.h"

namespace ropescope {

const std::vector<TextModelType>& textModelTypes() {
  // Each reads head_dim (else hidden_size / num_attention_heads), partial_rotary_factor,
  // rope_theta and rope_scaling / rope_parameters as Llama's config does. Models whose rotary
  // dim comes from another key (DeepSeek's qk_rope_head_dim) or whose layers differ by type in
  // ways ropescope does not model (Gemma 3's rope_local_base_freq) are not listed.
  static const std::vector<TextModelType> types{
      {"llama", "Llama"}, {"mistral", "Mistral"}, {"qwen2", "Qwen2"},
      {"qwen3", "Qwen3"}, {"phi3", "Phi-3"},      {"gpt_oss", "gpt-oss"},
  };
  return types;
}

const TextModelType* findTextModelType(const std::string& modelType) {
  for (const TextModelType& t : textModelTypes())
    if (t.modelType == modelType) return &t;
  return nullptr;
}

}  // namespace ropescope
