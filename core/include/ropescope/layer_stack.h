// Every decoder layer of a text model whose rotary changes by layer (Gemma 3, Gemma 4, Llama 4,
// or any config with layer_types): its index, attention kind and window, and its rotary or none.
// The rules per family live in one table (core/src/layer_families.cpp); built from config.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ropescope/attention_temperature.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/model_config.h"

namespace ropescope {

// The most decoder layers a config may have (num_hidden_layers, layer_types).
inline constexpr int kMaxStackLayers = 4096;

// What a layer's attention sees: every earlier token, the last `window` tokens (sliding), or
// the tokens of its own chunk of `window` (chunked, Llama 4's RoPE layers).
enum class LayerAttention { Full, Sliding, Chunked };
const char* layerAttentionName(LayerAttention a);  // "full", "sliding", "chunked"

struct StackLayer {
  int index = 0;
  std::string type;  // the config's layer type: "sliding_attention", "full_attention", ...
  LayerAttention attention = LayerAttention::Full;
  long long window = 0;     // sliding window or chunk size in tokens; 0 for full attention, and
                            // where the config does not say (a config read by layer_types alone)
  bool rotary = true;       // false: a NoPE layer (no position encoding at all)
  FrequencySpec frequency;  // the layer's rotary (plan vanilla); meaningless where !rotary
  // Llama 4's NoPE layers with attn_temperature_tuning: q is scaled by position.
  std::optional<AttentionTemperature> temperature;
  bool operator==(const StackLayer&) const = default;
};

struct LayerStack {
  std::string name;       // the model's name, as ModelConfig::name
  std::string family;     // "gemma3", "gemma4", "llama4"; "" for a config read by layer_types
  std::string title;      // "Gemma 3"
  std::string modelType;  // config.json model_type as written
  std::vector<StackLayer> layers;
  // Gemma 3: the tokens of one picture see each other in every layer (the or_mask transformers
  // builds from token_type_ids; layer_attention.h).
  bool pictureBlocks = false;
  // Every logit of the attention preview is q . k times this; 0: 1/sqrt(head dim). Gemma 3:
  // query_pre_attn_scalar^-0.5.
  double logitScale = 0.0;
  // One line per config setting that changes attention and that the preview does not model,
  // naming the setting, its value and what the preview does instead (layer_attention.h).
  std::vector<std::string> unmodelled;
  // Every layer has the same rotary (or every one none) and no temperature.
  bool uniform() const;
  // The distinct layer types, in order of first appearance.
  std::vector<std::string> types() const;
};

// The stack of a config.json's text. Throws InputError (field "model") as readModelConfig does,
// and for a layer list that does not fit num_hidden_layers.
LayerStack layerStackFromJson(const std::string& configText,
                              const std::string& name = "config.json");
// The same for a checkpoint folder, a config.json or a shipped model name (readModelConfig's
// rules for finding it).
LayerStack readLayerStack(const std::string& dirOrName);

// Layer `layer` of the stack; InputError (field "layer") naming the range 0..n-1 outside it.
const StackLayer& layerAt(const LayerStack& stack, int layer);
// `model` (readModelConfig of the same config) with layer `layer`'s rotary as its frequency and
// its type as layerType. Throws InputError (field "layer") for an index outside 0..n-1, naming
// the range, and for a NoPE layer: such a layer has no rotary to show.
ModelConfig modelConfigOfLayer(const ModelConfig& model, const LayerStack& stack, int layer);
// The first layer of a type (what --layer-type picks on a stack); InputError (field
// "layer-type") naming the stack's types when there is none.
int firstLayerOfType(const LayerStack& stack, const std::string& type);

}  // namespace ropescope
