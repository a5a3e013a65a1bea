// A Python call's inputs turned into the CLI's Request by the CLI's own parser (one option
// table, one set of checks and messages): keyword arguments arrive as command-line words, a
// scene dict as scene-file JSON, a processor output as tokens-file JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli_options.h"

namespace ropescope::python {

struct Inputs {
  std::vector<std::string> args;          // "--layout", "t5,i3x3", "--param", "fps=4", ...
  std::optional<std::string> sceneJson;   // scene= as a dict, in scene-file JSON
  std::optional<std::string> tokensJson;  // tokens= (a processor output) as tokens-file JSON
  std::string model;                      // model= NAME|DIR, "" when not given
  std::string tokensPath;                 // tokens= a tokens file (.json, .npz), "" when not
  bool hasTokens() const { return tokensJson.has_value() || !tokensPath.empty(); }
};

// Throws InputError with the CLI's one-line message for any bad input.
cli::Request buildRequest(cli::Command command, const Inputs& inputs,
                          const cli::ExtraOptions& extra = {},
                          std::vector<std::string>* positional = nullptr);

}  // namespace ropescope::python
