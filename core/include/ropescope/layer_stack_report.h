// `ropescope layers`: a layer stack (layer_stack.h) as text for a person (runs of identical
// layers on one line), JSON (every layer, every field) or CSV (one row per layer).
#pragma once

#include <string>

#include "ropescope/layer_stack.h"
#include "ropescope/report_grid.h"

namespace ropescope {

enum class LayerStackFormat { Text, Json, Csv };
// "text" | "json" | "csv"; InputError (field "format") naming them otherwise.
LayerStackFormat parseLayerStackFormat(const std::string& name);

std::string layerStackReport(const LayerStack& stack, LayerStackFormat format);

// One layer's rotary in words: "θ 1e4 default, head 256", "θ 1e6 linear ×8, head 256",
// "θ 1e6 proportional 0.25, head 512 (128 dims rotated)", "no rotary (NoPE)".
std::string layerRotaryText(const StackLayer& layer);

// A run of consecutive identical layers (same type, window, rotary and temperature): the lines
// the text report folds, first and last index inclusive.
struct LayerRun {
  int first = 0, last = 0;
  bool operator==(const LayerRun&) const = default;
};
std::vector<LayerRun> layerRuns(const LayerStack& stack);

// The stack as a grid (report_grid.h) for the desktop app's Layers tab: one line per run
// (named "0", "5" or "0–4"), columns type, attention, window, θ, scaling, head dim, rotary dims
// and q temperature; n/a with the reason where a layer has no such value (a NoPE layer's θ).
ReportGrid layerStackGrid(const LayerStack& stack);

}  // namespace ropescope
