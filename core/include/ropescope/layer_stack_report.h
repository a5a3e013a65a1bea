// `ropescope layers`: a layer stack (layer_stack.h) as text for a person (runs of identical
// layers on one line), JSON (every layer, every field) or CSV (one row per layer).
#pragma once

#include <string>

#include "ropescope/layer_stack.h"

namespace ropescope {

enum class LayerStackFormat { Text, Json, Csv };
// "text" | "json" | "csv"; InputError (field "format") naming them otherwise.
LayerStackFormat parseLayerStackFormat(const std::string& name);

std::string layerStackReport(const LayerStack& stack, LayerStackFormat format);

// One layer's rotary in words: "θ 1e4 default, head 256", "θ 1e6 linear ×8, head 256",
// "θ 1e6 proportional 0.25, head 512 (128 dims rotated)", "no rotary (NoPE)".
std::string layerRotaryText(const StackLayer& layer);

}  // namespace ropescope
