#include "ropescope/layer_stack_report.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

// 10000 -> "1e4", 500000 -> "5e5", 1000000 -> "1e6"; other numbers as formatDouble writes them.
std::string layerShortNumber(double v) {
  if (v >= 1e4 && std::isfinite(v)) {
    const int e = static_cast<int>(std::floor(std::log10(v)));
    const double mantissa = v / std::pow(10.0, e);
    const double whole = std::round(mantissa);
    if (std::fabs(mantissa - whole) < 1e-9) return formatDouble(whole) + "e" + std::to_string(e);
  }
  return formatDouble(v);
}

std::string layerRopeType(const FrequencySpec& f) {
  return f.rope.active() ? f.rope.type : std::string("default");
}

// Rotated dims: the rotary dim, or for proportional the share of the head its factor gives.
int layerRotatedDims(const FrequencySpec& f) {
  if (f.rope.type == "proportional")
    if (const auto p = f.rope.params.find("partial_rotary_factor"))
      return static_cast<int>(std::lround(f.rotary.headDim * *p));
  return f.rotary.effectiveRotaryDim();
}

std::string layerWindowText(const StackLayer& l) {
  if (l.attention != LayerAttention::Full && l.window == 0)
    return std::string(layerAttentionName(l.attention)) + " (size not in the config)";
  if (l.attention == LayerAttention::Sliding)
    return "sliding (window " + std::to_string(l.window) + ")";
  if (l.attention == LayerAttention::Chunked)
    return "chunked (chunk " + std::to_string(l.window) + ")";
  return "full";
}

bool layerSameRun(const StackLayer& a, const StackLayer& b) {
  return a.type == b.type && a.attention == b.attention && a.window == b.window &&
         a.rotary == b.rotary && (!a.rotary || a.frequency == b.frequency) &&
         a.temperature == b.temperature;
}

std::string layerRunName(const LayerRun& run) {
  return run.first == run.last ? std::to_string(run.first)
                               : std::to_string(run.first) + "–" + std::to_string(run.last);
}

std::string layerTemperatureText(const AttentionTemperature& t) {
  return "q × (1 + " + formatDouble(t.attnScale) + "·ln(1 + ⌊(p+1)/" + formatDouble(t.floorScale) +
         "⌋))";
}

nlohmann::ordered_json layerRotaryJson(const StackLayer& l) {
  if (!l.rotary) return nullptr;
  const FrequencySpec& f = l.frequency;
  nlohmann::ordered_json r;
  r["rope_type"] = layerRopeType(f);
  r["theta"] = f.rotary.base;
  if (const auto factor = f.rope.params.find("factor")) r["factor"] = *factor;
  r["head_dim"] = f.rotary.headDim;
  r["rotary_dim"] = layerRotatedDims(f);
  r["pair_layout"] = pairLayoutName(f.rotary.pairs);
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [key, value] : f.rope.params.values()) params[key] = value;
  r["rope_parameters"] = params;
  return r;
}

}  // namespace

LayerStackFormat parseLayerStackFormat(const std::string& name) {
  if (name == "text") return LayerStackFormat::Text;
  if (name == "json") return LayerStackFormat::Json;
  if (name == "csv") return LayerStackFormat::Csv;
  throw InputError("--format expects text, json or csv (got \"" + name + "\")", "format");
}

std::string layerRotaryText(const StackLayer& l) {
  if (!l.rotary) {
    std::string s = "no rotary (NoPE)";
    if (l.temperature) s += ", " + layerTemperatureText(*l.temperature);
    return s;
  }
  const FrequencySpec& f = l.frequency;
  std::string s = "θ " + layerShortNumber(f.rotary.base) + " " + layerRopeType(f);
  if (f.rope.type == "proportional") {
    if (const auto p = f.rope.params.find("partial_rotary_factor")) s += " " + formatDouble(*p);
  } else if (const auto factor = f.rope.params.find("factor")) {
    s += " ×" + formatDouble(*factor);
  }
  s += ", head " + std::to_string(f.rotary.headDim);
  if (const int d = layerRotatedDims(f); d != f.rotary.headDim)
    s += " (" + std::to_string(d) + " dims rotated)";
  if (f.rotary.pairs == PairLayout::GptJ) s += ", adjacent pairs";
  return s;
}

std::vector<LayerRun> layerRuns(const LayerStack& stack) {
  std::vector<LayerRun> runs;
  const int n = static_cast<int>(stack.layers.size());
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && layerSameRun(stack.layers[static_cast<std::size_t>(i)],
                                     stack.layers[static_cast<std::size_t>(j + 1)]))
      ++j;
    runs.push_back({i, j});
    i = j + 1;
  }
  return runs;
}

ReportGrid layerStackGrid(const LayerStack& stack) {
  ReportGrid g;
  g.columns = {"type",    "attention", "window",      "θ",
               "scaling", "head dim",  "rotary dims", "q temperature"};
  const std::string noRotary = "a NoPE layer: no rotary, no position encoding at all";
  for (const LayerRun& run : layerRuns(stack)) {
    const StackLayer& l = stack.layers[static_cast<std::size_t>(run.first)];
    GridLine line;
    line.name = layerRunName(run);
    line.cells.push_back(gridValue(l.type));
    line.cells.push_back(gridValue(layerAttentionName(l.attention)));
    if (l.attention == LayerAttention::Full)
      line.cells.push_back(gridUndefined("full attention: every earlier token"));
    else if (l.window == 0)
      line.cells.push_back(gridUndefined("the config does not give its size"));
    else
      line.cells.push_back(gridValue(std::to_string(l.window),
                                     l.attention == LayerAttention::Sliding
                                         ? "the last tokens each token sees"
                                         : "the tokens of a chunk, each seeing its own chunk"));
    if (l.rotary) {
      const FrequencySpec& f = l.frequency;
      line.cells.push_back(gridValue(layerShortNumber(f.rotary.base), "rope_theta"));
      std::string scaling = layerRopeType(f);
      if (f.rope.type == "proportional") {
        if (const auto p = f.rope.params.find("partial_rotary_factor"))
          scaling += " " + formatDouble(*p);
      } else if (const auto factor = f.rope.params.find("factor")) {
        scaling += " ×" + formatDouble(*factor);
      }
      line.cells.push_back(gridValue(scaling, layerRotaryText(l)));
      line.cells.push_back(gridValue(std::to_string(f.rotary.headDim)));
      line.cells.push_back(gridValue(std::to_string(layerRotatedDims(f)),
                                     std::string("pair layout ") + pairLayoutName(f.rotary.pairs)));
    } else {
      for (int c = 0; c < 4; ++c) line.cells.push_back(gridUndefined(noRotary));
    }
    if (l.temperature)
      line.cells.push_back(gridValue(layerTemperatureText(*l.temperature),
                                     "attn_temperature_tuning: q scaled by position p"));
    else
      line.cells.push_back(
          gridUndefined(l.rotary ? "a rotary layer: q is not scaled by position"
                                 : "the config does not tune the attention temperature"));
    g.lines.push_back(std::move(line));
  }
  return g;
}

std::string layerStackReport(const LayerStack& stack, LayerStackFormat format) {
  std::ostringstream o;
  if (format == LayerStackFormat::Json) {
    nlohmann::ordered_json j;
    j["model"] = stack.name;
    j["family"] = stack.family;
    j["title"] = stack.title;
    j["model_type"] = stack.modelType;
    j["num_layers"] = stack.layers.size();
    j["uniform"] = stack.uniform();
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const StackLayer& l : stack.layers) {
      nlohmann::ordered_json e;
      e["index"] = l.index;
      e["type"] = l.type;
      e["attention"] = layerAttentionName(l.attention);
      e["window"] = l.window > 0 ? nlohmann::ordered_json(l.window) : nullptr;
      e["rotary"] = layerRotaryJson(l);
      if (l.temperature)
        e["temperature"] = {{"floor_scale", l.temperature->floorScale},
                            {"attn_scale", l.temperature->attnScale}};
      else
        e["temperature"] = nullptr;
      layers.push_back(e);
    }
    j["layers"] = layers;
    o << j.dump(2) << "\n";
    return o.str();
  }
  if (format == LayerStackFormat::Csv) {
    o << "index,type,attention,window,rotary,rope_type,theta,factor,head_dim,rotary_dim,"
         "pair_layout,floor_scale,attn_scale\n";
    for (const StackLayer& l : stack.layers) {
      o << l.index << "," << l.type << "," << layerAttentionName(l.attention) << ",";
      if (l.window > 0) o << l.window;
      o << "," << (l.rotary ? "yes" : "no") << ",";
      if (l.rotary) {
        const FrequencySpec& f = l.frequency;
        o << layerRopeType(f) << "," << csvNumber(f.rotary.base) << ",";
        if (const auto factor = f.rope.params.find("factor")) o << csvNumber(*factor);
        o << "," << f.rotary.headDim << "," << layerRotatedDims(f) << ","
          << pairLayoutName(f.rotary.pairs);
      } else {
        o << ",,,,,";
      }
      o << ",";
      if (l.temperature) o << csvNumber(l.temperature->floorScale);
      o << ",";
      if (l.temperature) o << csvNumber(l.temperature->attnScale);
      o << "\n";
    }
    return o.str();
  }
  // Text: a header, then one line per run of identical layers.
  std::vector<std::pair<std::string, int>> counts;
  for (const StackLayer& l : stack.layers) {
    bool found = false;
    for (auto& [t, c] : counts)
      if (t == l.type) found = (++c, true);
    if (!found) counts.push_back({l.type, 1});
  }
  o << stack.name << ": " << stack.title << ", " << stack.layers.size() << " layers (";
  for (std::size_t i = 0; i < counts.size(); ++i)
    o << (i ? ", " : "") << counts[i].second << " " << counts[i].first;
  o << ")\n";
  // Columns, not bytes: "–" and "θ" are one column each.
  const auto columns = [](const std::string& s) {
    std::size_t cols = 0;
    for (unsigned char c : s) cols += (c & 0xC0) != 0x80;
    return cols;
  };
  std::size_t widthLayers = 6, widthAttention = 9;
  struct Row {
    std::string layers, attention, rotary;
  };
  std::vector<Row> rows;
  for (const LayerRun& run : layerRuns(stack)) {
    const StackLayer& first = stack.layers[static_cast<std::size_t>(run.first)];
    Row r;
    r.layers = layerRunName(run);
    r.attention = layerWindowText(first);
    r.rotary = layerRotaryText(first);
    widthLayers = std::max(widthLayers, columns(r.layers));
    widthAttention = std::max(widthAttention, columns(r.attention));
    rows.push_back(r);
  }
  const auto pad = [&columns](const std::string& s, std::size_t w) {
    const std::size_t cols = columns(s);
    return s + std::string(w > cols ? w - cols : 0, ' ');
  };
  o << "  " << pad("layers", widthLayers) << "  " << pad("attention", widthAttention)
    << "  rotary\n";
  for (const Row& r : rows)
    o << "  " << pad(r.layers, widthLayers) << "  " << pad(r.attention, widthAttention) << "  "
      << r.rotary << "\n";
  return o.str();
}

}  // namespace ropescope
