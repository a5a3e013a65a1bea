// `ropescope qk-usage`: what a model does with its rotary pairs and its sinks, from a layer's
// real pre-RoPE q/k (core qk_usage.h): per pair the mean q and k norms and their product, per
// head the causal attention on the first token and on each picture's first token, printed as
// text, JSON or CSV (qk_usage_report.h), or written atomically to --out.
#include <iostream>

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/qk_usage.h"
#include "ropescope/qk_usage_report.h"

namespace ropescope::cli {

namespace {

struct QkUsageOptions {
  std::string qPath, kPath;
  QkUsageFormat format = QkUsageFormat::Text;
};

const char* kQkUsageNotes =
    "\nPer rotary pair p (the dims the scene's pair layout rotates together): the mean over the\n"
    "tokens of ||q_p|| and ||k_p||, their product and its share of the sum over pairs, per head\n"
    "and averaged over heads (arXiv 2410.06205). Norms are rotation-invariant: pre- or\n"
    "post-RoPE q/k give the same numbers. Per head: the mean causal softmax attention (RoPE at\n"
    "the scene's ids) on the first token and on each picture's first token, over the query rows\n"
    "that see it (arXiv 2410.10781). docs/user/attention.md#qk-usage explains each number.\n";

bool readQkUsageOption(QkUsageOptions& o, const std::string& name,
                       const std::function<std::string()>& value) {
  if (name == "q" || name == "k") {
    std::string& path = name == "q" ? o.qPath : o.kPath;
    path = value();
    if (path.empty()) throw InputError("--" + name + " needs a file name", name);
  } else if (name == "format") {
    o.format = parseQkUsageFormat(value());
  } else {
    return false;
  }
  return true;
}

}  // namespace

int runQkUsageCommand(const std::vector<std::string>& args) {
  QkUsageOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    return readQkUsageOption(o, name, value);
  };
  const Request req = parseArguments(kQkUsage, args, extra);
  if (req.help) {
    std::cout << commandHelp(kQkUsage) << kQkUsageNotes;
    return 0;
  }
  if (o.qPath.empty() || o.kPath.empty())
    throw InputError("qk-usage needs --q FILE.npy and --k FILE.npy, a layer's pre-RoPE q and k",
                     o.qPath.empty() ? "q" : "k");
  printInputWarnings(req);
  const auto load = [&o](std::size_t tokens, int headDim) {
    return loadQkNpy(o.qPath, o.kPath, tokens, headDim);
  };
  const QkUsage usage = sceneQkUsage(req.scene, load, req.threads);
  writeOutput(qkUsageReport(req.scene, usage, o.format), req.out);
  return 0;
}

}  // namespace ropescope::cli
