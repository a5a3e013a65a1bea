// The text models whose rotary changes by layer, one row per family (layer_families.cpp): which
// config fields decide each layer's type, window and rotary, and transformers' class defaults
// for the fields a published config leaves out. layer_stack.cpp and model_config.cpp read it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropescope/frequency_plan.h"

namespace ropescope {

// How a config without layer_types gets them.
enum class LayerTypeRule {
  SlidingPattern,  // sliding_attention unless (i + 1) % sliding_window_pattern == 0 (Gemma)
  NoRopeLayers,    // Llama 4: no_rope_layers (1 = RoPE), else every no_rope_layer_interval-th
                   // layer NoPE; RoPE layers chunked_attention, NoPE layers full_attention
};

// What the attention preview does with a picture's tokens for the family.
enum class PictureMask {
  Blocks,     // Gemma 3: a picture's tokens see each other (token_type_ids or_mask)
  Unchecked,  // the family's rule for picture tokens was not compared with transformers' code:
              // the preview gives them each layer's mask as text, and says so
};

struct LayerFamily {
  std::string name;                     // "gemma3"
  std::string title;                    // "Gemma 3"
  std::vector<std::string> modelTypes;  // the wrapper's and the text model's model_type
  // transformers' config class defaults of the fields ropescope reads, as a JSON object: put
  // into the text config where it does not set them.
  const char* classDefaults;
  LayerTypeRule typeRule;
  bool lastLayerFull;  // transformers forces the last layer to full_attention (Gemma 4)
  // Gemma 3's 4.x form: the sliding layers take rope_theta from this key and no scaling
  // (Gemma3TextModel's rotary_emb_local); "" where the family has no such key.
  std::string localThetaKey;
  // Gemma 4: the full_attention layers' head size comes from this key; "" for none.
  std::string fullHeadDimKey;
  PairLayout pairs;  // which dims a pair rotates (Llama 4: adjacent, complex multiply)
  PictureMask pictures;
  // The logits are scaled by query_pre_attn_scalar^-0.5 instead of 1/sqrt(head dim) (Gemma 3);
  // false: a config's query_pre_attn_scalar is a setting the preview does not model.
  bool queryPreAttnScale;
  std::string source;  // the transformers files the rules come from
};

const std::vector<LayerFamily>& layerFamilies();
// nullptr when no family answers to this model_type.
const LayerFamily* layerFamilyForModelType(const std::string& modelType);
// Puts the family's class defaults into the config's text part (text_config, else the top
// level) where it does not set them (or sets them null).
void putClassDefaults(const LayerFamily& family, nlohmann::json& config);

}  // namespace ropescope
