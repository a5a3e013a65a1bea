// Each row from transformers' own configuration and modeling files (read, not copied):
// * Gemma 3: configuration_gemma3.py (Gemma3TextConfig: rope_theta 1e6, rope_local_base_freq
//   1e4, sliding_window 4096, head_dim 256, 26 layers, max_position_embeddings 131072; without
//   layer_types, sliding_window_pattern 6 gives "sliding_attention" unless (i + 1) % 6 == 0) and
//   modeling_gemma3.py 4.5x (Gemma3TextModel builds rotary_emb_local from a copy of the config
//   with rope_theta = rope_local_base_freq and rope_scaling {"rope_type": "default"};
//   Gemma3Attention scales the logits by query_pre_attn_scalar^-0.5, class default 256).
// * Gemma 4: configuration_gemma4.py (Gemma4TextConfig: 30 layers, head_dim 256,
//   global_head_dim 512 for the full_attention layers, sliding_window 512, layer_types by the
//   same pattern of 6 with the last layer forced to full_attention, rope_parameters sliding
//   default θ 1e4 and full proportional 0.25 θ 1e6).
// * Llama 4: configuration_llama4.py (Llama4TextConfig: 48 layers, head_dim 128, rope_theta
//   5e5, no_rope_layers default 1 unless (i + 1) % no_rope_layer_interval (4) == 0,
//   layer_types chunked_attention for RoPE layers and full_attention for NoPE ones,
//   attention_chunk_size 8192, attn_temperature_tuning True, floor_scale 8192, attn_scale 0.1)
//   and modeling_llama4.py (the rotary as complex numbers over adjacent dims; the temperature
//   on layers without RoPE).
#include "layer_families.h"

namespace ropescope {

const std::vector<LayerFamily>& layerFamilies() {
  static const std::vector<LayerFamily> families{
      {"gemma3",
       "Gemma 3",
       {"gemma3", "gemma3_text"},
       R"({"rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "sliding_window": 4096,
           "sliding_window_pattern": 6, "head_dim": 256, "num_hidden_layers": 26,
           "max_position_embeddings": 131072, "query_pre_attn_scalar": 256})",
       LayerTypeRule::SlidingPattern,
       false,
       "rope_local_base_freq",
       "",
       PairLayout::NeoX,
       PictureMask::Blocks,
       true,
       "transformers configuration_gemma3.py, modeling_gemma3.py"},
      {"gemma4",
       "Gemma 4",
       {"gemma4", "gemma4_text"},
       R"({"head_dim": 256, "global_head_dim": 512, "sliding_window": 512,
           "sliding_window_pattern": 6, "num_hidden_layers": 30,
           "max_position_embeddings": 131072,
           "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                               "full_attention": {"rope_type": "proportional",
                                                  "partial_rotary_factor": 0.25,
                                                  "rope_theta": 1000000.0}}})",
       LayerTypeRule::SlidingPattern,
       true,
       "",
       "global_head_dim",
       PairLayout::NeoX,
       PictureMask::Unchecked,
       false,
       "transformers configuration_gemma4.py"},
      {"llama4",
       "Llama 4",
       {"llama4", "llama4_text"},
       R"({"rope_theta": 500000.0, "head_dim": 128, "num_hidden_layers": 48,
           "no_rope_layer_interval": 4, "attention_chunk_size": 8192,
           "attn_temperature_tuning": true, "floor_scale": 8192, "attn_scale": 0.1,
           "max_position_embeddings": 131072})",
       LayerTypeRule::NoRopeLayers,
       false,
       "",
       "",
       PairLayout::GptJ,
       PictureMask::Unchecked,
       false,
       "transformers configuration_llama4.py, modeling_llama4.py"},
  };
  return families;
}

const LayerFamily* layerFamilyForModelType(const std::string& modelType) {
  for (const LayerFamily& f : layerFamilies())
    for (const std::string& t : f.modelTypes)
      if (t == modelType) return &f;
  return nullptr;
}

void putClassDefaults(const LayerFamily& family, nlohmann::json& config) {
  nlohmann::json* text = &config;
  if (auto it = config.find("text_config"); it != config.end() && it->is_object()) text = &*it;
  const nlohmann::json defaults = nlohmann::json::parse(family.classDefaults);
  for (const auto& [key, value] : defaults.items())
    if (auto it = text->find(key); it == text->end() || it->is_null()) (*text)[key] = value;
}

}  // namespace ropescope
