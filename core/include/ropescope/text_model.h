// Text-only decoders whose config.json --model reads for its rotary: no processor and no vision,
// so ropescope reads them as one-dimensional RoPE over every token (design hard, plan vanilla)
// with the config's head size, partial rotary, theta and rope scaling. Their transformers rotary
// is Llama's (each model file's rotary embedding is marked "Copied from" Llama's), which runs the
// generic rope functions of modeling_rope_utils.py. One row per model_type, in
// core/src/text_models.cpp.
#pragma once

#include <string>
#include <vector>

namespace ropescope {

struct TextModelType {
  std::string modelType;  // config.json model_type ("llama")
  std::string title;      // "Llama"
};

const std::vector<TextModelType>& textModelTypes();
// nullptr when no text-only model has this model_type.
const TextModelType* findTextModelType(const std::string& modelType);

}  // namespace ropescope
