#include "requests.h"

#include "ropescope/errors.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/scene.h"
#include "ropescope/tokens_file.h"

namespace ropescope::python {

cli::Request buildRequest(cli::Command command, const Inputs& in, const cli::ExtraOptions& extra,
                          std::vector<std::string>* positional) {
  std::vector<std::string> args = in.args;
  if (in.hasTokens()) {
    // The CLI reads --tokens from a file; here the processor output may be in memory. The same
    // steps in the same order: the model, its scene, the token layout, then the options.
    if (in.model.empty())
      throw InputError(
          "tokens= needs model=DIR|NAME (the token ids and the family come from the model's "
          "config)",
          "tokens");
    if (in.sceneJson) throw InputError("give either tokens= or scene=, not both", "tokens");
    // layer_type= and layer= pick the model's rotary here; the options below must not see them
    // again.
    std::string layerType, layerText;
    bool layerGiven = false;
    for (std::size_t i = 0; i + 1 < args.size();) {
      if (args[i] == "--layer-type" || args[i] == "--layer") {
        (args[i] == "--layer" ? layerText : layerType) = args[i + 1];
        layerGiven = layerGiven || args[i] == "--layer";
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                   args.begin() + static_cast<std::ptrdiff_t>(i + 2));
      } else {
        ++i;
      }
    }
    if (layerGiven && !layerType.empty())
      throw InputError("give either layer= or layer_type=, not both", "layer");
    // rules= decides how runs that disagree with their grids are read (tokens_file.h); the
    // options below check the name again.
    std::optional<std::size_t> rules;
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == "--rules") rules = static_cast<std::size_t>(parseRuleSet(args[i + 1]));
    const ModelConfig model = cli::pickModelLayer(in.model, layerType, layerGiven, layerText,
                                                  nullptr, command == cli::kAttention);
    Scene base = applyModel(defaultScene(), model);
    const TokenInput tokens = in.tokensPath.empty() ? tokensFromJson(*in.tokensJson, "tokens")
                                                    : readTokensFile(in.tokensPath);
    std::vector<std::string> warnings;
    base.layout = layoutFromTokens(tokens, model, nullptr, {rules, &warnings});
    cli::Request r = cli::parseArguments(command, args, extra, &base, positional);
    r.tokenWarnings = std::move(warnings);
    r.tokenIds.assign(tokens.inputIds.begin(), tokens.inputIds.end());
    r.tokenKept = tokens.kept;
    r.model = in.model;
    r.modelMaxPositions = model.maxPositionEmbeddings;
    r.modelLayer = model.layer;
    r.modelLayerType = layerType;
    return r;
  }
  if (!in.model.empty()) {
    args.push_back("--model");
    args.push_back(in.model);
  }
  if (in.sceneJson) {
    const Scene base = sceneFromJson(*in.sceneJson);
    return cli::parseArguments(command, args, extra, &base, positional);
  }
  return cli::parseArguments(command, args, extra, nullptr, positional);
}

}  // namespace ropescope::python
