// `ropescope layers`: every decoder layer of a --model (core layer_stack.h): its attention kind
// and window, its rotary or none, Llama 4's temperature; text, JSON or CSV
// (layer_stack_report.h), or written atomically to --out.
#include <iostream>

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "ropescope/errors.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layer_stack_report.h"

namespace ropescope::cli {

namespace {

const char* kLayersNotes =
    "\nEach layer's rotary is what --layer N gives freqs, decay, rotary and the other commands.\n"
    "Text folds runs of identical layers into one line. docs/long-context.md#a-rotary-per-layer\n"
    "explains the families' rules.\n";

}  // namespace

int runLayersCommand(const std::vector<std::string>& args) {
  LayerStackFormat format = LayerStackFormat::Text;
  const auto extra = [&format](const std::string& name, const std::function<std::string()>& value) {
    if (name != "format") return false;
    format = parseLayerStackFormat(value());
    return true;
  };
  const Request req = parseArguments(kLayers, args, extra);
  if (req.help) {
    std::cout << commandHelp(kLayers) << kLayersNotes;
    return 0;
  }
  if (req.model.empty())
    throw InputError("layers needs --model DIR|NAME (a config.json or a shipped model)", "model");
  const LayerStack stack = readLayerStack(req.model);
  // What the attention of these layers does that ropescope does not model: one line each.
  for (const std::string& w : stack.unmodelled) std::cerr << "ropescope: warning: " << w << "\n";
  writeOutput(layerStackReport(stack, format), req.out);
  return 0;
}

}  // namespace ropescope::cli
