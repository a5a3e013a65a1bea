// A config's decoder layers, each with its attention kind, window and rotary. The layer types
// come from layer_types where the config lists them, else from the family's rule
// (layer_families.h); each type's rotary is readModelConfig's for that type (so the rope block
// per layer type, Gemma 3's rope_local_base_freq and Gemma 4's global_head_dim are read in one
// place), and Llama 4's NoPE layers have none.
#include "ropescope/layer_stack.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "layer_families.h"
#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

using StackJson = nlohmann::json;

[[noreturn]] void stackFail(const std::string& where, const std::string& what) {
  throw InputError(where + ": " + what, "model");
}

// A whole number field of the text config, or `fallback` where it is absent.
long long stackWhole(const StackJson& text, const std::string& key, const std::string& where,
                     long long lo, long long hi, long long fallback) {
  const auto it = text.find(key);
  if (it == text.end() || it->is_null()) return fallback;
  if (!it->is_number_integer() && !it->is_number_unsigned() &&
      !(it->is_number_float() && it->get<double>() == std::floor(it->get<double>())))
    stackFail(where, key + " must be a whole number (got " + it->dump() + ")");
  const double v = it->get<double>();
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
    stackFail(where, key + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                         " (got " + it->dump() + ")");
  return static_cast<long long>(v);
}

double stackReal(const StackJson& text, const std::string& key, const std::string& where, double lo,
                 double hi) {
  const auto it = text.find(key);
  if (it == text.end() || !it->is_number() || !std::isfinite(it->get<double>()) ||
      it->get<double>() < lo || it->get<double>() > hi)
    stackFail(where, key + " must be a number in [" + formatDouble(lo) + ", " + formatDouble(hi) +
                         "]" + (it == text.end() ? " (missing)" : " (got " + it->dump() + ")"));
  return it->get<double>();
}

// attn_temperature_tuning: a bool in the class, written as 4 in Llama 4 Scout's config (truthy).
bool stackTruthy(const StackJson& text, const std::string& key) {
  const auto it = text.find(key);
  if (it == text.end() || it->is_null()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_number()) return it->get<double>() != 0.0;
  return false;
}

LayerAttention attentionOfType(const std::string& type, const std::string& where) {
  if (type == "full_attention") return LayerAttention::Full;
  if (type == "sliding_attention") return LayerAttention::Sliding;
  if (type == "chunked_attention") return LayerAttention::Chunked;
  stackFail(where, "layer type \"" + type +
                       "\" is not one ropescope models (accepted: full_attention, "
                       "sliding_attention, chunked_attention)");
}

}  // namespace

const char* layerAttentionName(LayerAttention a) {
  switch (a) {
    case LayerAttention::Full:
      return "full";
    case LayerAttention::Sliding:
      return "sliding";
    case LayerAttention::Chunked:
      return "chunked";
  }
  return "?";
}

bool LayerStack::uniform() const {
  for (const StackLayer& l : layers)
    if (l.rotary != layers.front().rotary || l.frequency != layers.front().frequency ||
        l.temperature)
      return false;
  return true;
}

std::vector<std::string> LayerStack::types() const {
  std::vector<std::string> out;
  for (const StackLayer& l : layers)
    if (std::find(out.begin(), out.end(), l.type) == out.end()) out.push_back(l.type);
  return out;
}

namespace {

// The settings of the text config that change attention: modelled ones go into the stack,
// the others become one line each (LayerStack::unmodelled). Sources: transformers'
// modeling_gemma3.py (Gemma3Attention: scaling = query_pre_attn_scalar ** -0.5,
// attn_logit_softcapping, is_causal = not use_bidirectional_attention; the token_type_ids
// or_mask of create_causal_mask_mapping for pictures), modeling_llama4.py (Llama4TextL2Norm on
// q and k of the RoPE layers when use_qk_norm).
void readAttentionSettings(const StackJson& text, const LayerFamily* family,
                           const std::string& name, LayerStack& stack) {
  const std::string where = "model config \"" + name + "\" sets ";
  stack.pictureBlocks = family && family->pictures == PictureMask::Blocks;
  if (family && family->pictures == PictureMask::Unchecked)
    stack.unmodelled.push_back("model config \"" + name + "\" (" + family->title +
                               "): how the model masks a picture's tokens was not checked "
                               "against transformers' code; the preview gives them each "
                               "layer's mask as text tokens");
  const bool queryScale = family && family->queryPreAttnScale;
  if (auto it = text.find("query_pre_attn_scalar"); it != text.end() && !it->is_null()) {
    if (!it->is_number() || !(it->get<double>() > 0.0))
      stackFail("model config \"" + name + "\"",
                "query_pre_attn_scalar must be a positive number (got " + it->dump() + ")");
    if (queryScale)
      stack.logitScale = 1.0 / std::sqrt(it->get<double>());
    else
      stack.unmodelled.push_back(where + "query_pre_attn_scalar = " + it->dump() +
                                 ": the preview scales the logits by 1/sqrt(head dim) instead");
  }
  if (auto it = text.find("use_qk_norm"); it != text.end() && stackTruthy(text, "use_qk_norm"))
    stack.unmodelled.push_back(where + "use_qk_norm = " + it->dump() +
                               ": the preview does not L2-normalise q and k after the rotary (as "
                               "Llama 4's RoPE layers do); it uses them as given");
  if (auto it = text.find("attn_logit_softcapping"); it != text.end() && !it->is_null())
    stack.unmodelled.push_back(where + "attn_logit_softcapping = " + it->dump() +
                               ": the preview does not cap the logits (cap * tanh(logit / cap)); "
                               "it uses them uncapped");
  if (auto it = text.find("use_bidirectional_attention");
      it != text.end() && !it->is_null() && !(it->is_boolean() && !it->get<bool>()))
    stack.unmodelled.push_back(where + "use_bidirectional_attention = " + it->dump() +
                               ": the preview keeps each layer's causal mask" +
                               (stack.pictureBlocks ? " (with the picture blocks)" : "") +
                               " instead of bidirectional attention");
}

}  // namespace

LayerStack layerStackFromJson(const std::string& configText, const std::string& name) {
  // Every field the rotary needs is checked here, with readModelConfig's messages.
  const ModelConfig base = modelConfigFromJson(configText, {}, {}, name);
  const std::string where = "model config \"" + name + "\"";
  StackJson cfg = StackJson::parse(configText);
  const std::string modelType = cfg.at("model_type").get<std::string>();
  const LayerFamily* family = layerFamilyForModelType(modelType);
  if (family) putClassDefaults(*family, cfg);
  const StackJson* thinker = nullptr;
  if (auto it = cfg.find("thinker_config"); it != cfg.end() && it->is_object()) thinker = &*it;
  const StackJson& root = thinker ? *thinker : cfg;
  const StackJson* textPtr = &root;
  if (auto it = root.find("text_config"); it != root.end() && it->is_object()) textPtr = &*it;
  const StackJson& text = *textPtr;

  LayerStack stack;
  stack.name = name;
  stack.family = family ? family->name : base.family;
  stack.title = base.title;
  stack.modelType = modelType;

  // The layer types.
  std::vector<std::string> types;
  if (auto it = text.find("layer_types"); it != text.end() && !it->is_null()) {
    if (!it->is_array() || it->empty())
      stackFail(where, "layer_types must be a list of layer type names (got " +
                           it->dump().substr(0, 60) + ")");
    for (const StackJson& t : *it) {
      if (!t.is_string())
        stackFail(where, "layer_types must hold names (got " + t.dump().substr(0, 30) + ")");
      types.push_back(t.get<std::string>());
    }
  }
  const long long count = stackWhole(text, "num_hidden_layers", where, 1, kMaxStackLayers,
                                     static_cast<long long>(types.size()));
  if (count == 0) stackFail(where, "missing field num_hidden_layers (and no layer_types)");
  const int n = static_cast<int>(count);
  if (!types.empty() && static_cast<int>(types.size()) != n)
    stackFail(where, "layer_types lists " + std::to_string(types.size()) +
                         " layers, num_hidden_layers is " + std::to_string(n));

  std::vector<bool> rope(static_cast<std::size_t>(n), true);
  if (family && family->typeRule == LayerTypeRule::NoRopeLayers) {
    // no_rope_layers: 1 = the layer uses RoPE; an empty list means the interval's default.
    const auto it = text.find("no_rope_layers");
    if (it != text.end() && it->is_array() && !it->empty()) {
      if (static_cast<int>(it->size()) < n)
        stackFail(where, "no_rope_layers lists " + std::to_string(it->size()) +
                             " layers, fewer than num_hidden_layers " + std::to_string(n));
      for (int i = 0; i < n; ++i) {
        const StackJson& v = (*it)[static_cast<std::size_t>(i)];
        if (!v.is_number() || (v.get<double>() != 0.0 && v.get<double>() != 1.0))
          stackFail(where, "no_rope_layers[" + std::to_string(i) + "] must be 0 or 1 (got " +
                               v.dump() + ")");
        rope[static_cast<std::size_t>(i)] = v.get<double>() == 1.0;
      }
    } else if (it != text.end() && !it->is_null() && !it->is_array()) {
      stackFail(where, "no_rope_layers must be a list of 0 and 1 (got " + it->dump() + ")");
    } else {
      const long long every =
          stackWhole(text, "no_rope_layer_interval", where, 1, kMaxStackLayers, 4);
      for (int i = 0; i < n; ++i) rope[static_cast<std::size_t>(i)] = (i + 1) % every != 0;
    }
    if (types.empty())
      for (int i = 0; i < n; ++i)
        types.push_back(rope[static_cast<std::size_t>(i)] ? "chunked_attention" : "full_attention");
  } else if (types.empty() && family && family->typeRule == LayerTypeRule::SlidingPattern) {
    const long long pattern =
        stackWhole(text, "sliding_window_pattern", where, 1, kMaxStackLayers, 6);
    for (int i = 0; i < n; ++i)
      types.push_back((i + 1) % pattern != 0 ? "sliding_attention" : "full_attention");
  } else if (types.empty()) {
    types.assign(static_cast<std::size_t>(n), "full_attention");
  }
  if (family && family->lastLayerFull) types.back() = "full_attention";

  // Each type's rotary: the config's own reading of that type where it has one per type.
  std::vector<std::pair<std::string, FrequencySpec>> rotaryOf;
  const bool perType = !base.layerTypes.empty();
  for (const std::string& t : types) {
    if (std::any_of(rotaryOf.begin(), rotaryOf.end(), [&](const auto& r) { return r.first == t; }))
      continue;
    rotaryOf.push_back(
        {t, perType ? modelConfigFromJson(configText, {}, {}, name, t).frequency : base.frequency});
  }
  const bool temperature = family && family->typeRule == LayerTypeRule::NoRopeLayers &&
                           stackTruthy(text, "attn_temperature_tuning");
  for (int i = 0; i < n; ++i) {
    StackLayer l;
    l.index = i;
    l.type = types[static_cast<std::size_t>(i)];
    l.attention = attentionOfType(l.type, where);
    // The window or chunk; 0 where a config without a family's defaults does not say.
    if (l.attention == LayerAttention::Sliding)
      l.window = stackWhole(text, "sliding_window", where, 1, 1LL << 40, 0);
    else if (l.attention == LayerAttention::Chunked)
      l.window = stackWhole(text, "attention_chunk_size", where, 1, 1LL << 40, 0);
    l.rotary = rope[static_cast<std::size_t>(i)];
    for (const auto& [t, f] : rotaryOf)
      if (t == l.type) l.frequency = f;
    if (!l.rotary) l.frequency = base.frequency;  // kept for its head size; never shown
    if (!l.rotary && temperature)
      l.temperature = AttentionTemperature{stackReal(text, "floor_scale", where, 1.0, 1e12),
                                           stackReal(text, "attn_scale", where, 0.0, 1e6)};
    stack.layers.push_back(std::move(l));
  }
  readAttentionSettings(text, family, name, stack);
  return stack;
}

LayerStack readLayerStack(const std::string& dirOrName) {
  std::string name;
  const ModelFiles files = readModelFiles(dirOrName, &name);
  return layerStackFromJson(files.config, name);
}

const StackLayer& layerAt(const LayerStack& stack, int layer) {
  const int n = static_cast<int>(stack.layers.size());
  if (layer < 0 || layer >= n)
    throw InputError("--layer " + std::to_string(layer) + ": model " + stack.name +
                         " has layers 0.." + std::to_string(n - 1) + " (accepted: 0.." +
                         std::to_string(n - 1) + ")",
                     "layer");
  return stack.layers[static_cast<std::size_t>(layer)];
}

ModelConfig modelConfigOfLayer(const ModelConfig& model, const LayerStack& stack, int layer) {
  const StackLayer& l = layerAt(stack, layer);
  if (!l.rotary)
    throw InputError("--layer " + std::to_string(layer) + ": layer " + std::to_string(layer) +
                         " of " + stack.name +
                         " has no rotary (a NoPE layer: no position encoding); `ropescope "
                         "layers --model " +
                         stack.name + "` lists which layers have one",
                     "layer");
  ModelConfig m = model;
  m.frequency = l.frequency;
  m.layer = layer;
  m.layerType = l.type;
  m.layerTypes = stack.types();
  return m;
}

int firstLayerOfType(const LayerStack& stack, const std::string& type) {
  for (const StackLayer& l : stack.layers)
    if (l.type == type) return l.index;
  throw InputError("--layer-type " + type + ": model " + stack.name +
                       " has no layer of that type (accepted: " + joinNames(stack.types()) + ")",
                   "layer-type");
}

}  // namespace ropescope
