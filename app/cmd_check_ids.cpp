// `ropescope check-ids --model M --tokens T.json --position-ids P.npy [--rules NAME|all]`:
// compares the position_ids a model computed (dumped from transformers) with the family's
// get_rope_index under a rule set, token by token. Exit 0 when they are identical, 1 when they
// differ (the first differing token, how many differ, and which rule set the dump matches, if
// any), 2 for bad input.
#include <iostream>

#include "cli_options.h"
#include "cli_parser.h"
#include "ropescope/check_ids.h"
#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "subcommands.h"

namespace ropescope::cli {

namespace {

const char* kHelp =
    "usage: ropescope check-ids --model DIR|NAME --tokens FILE.json --position-ids P.npy\n"
    "                           [--rules NAME|all]\n"
    "Compares a position_ids tensor dumped from the model ([3, N], Hugging Face's [3, 1, N], or\n"
    "[4, ...] whose first row is the text positions of the v5 generation ids; int64 or float)\n"
    "with the ids ropescope computes for the tokens file under the family's get_rope_index.\n"
    "Exit 0: \"identical (N tokens, RULES)\". Exit 1: the first differing token (index,\n"
    "modality, grid cell, both ids), how many differ, and the rule set the dump matches, if\n"
    "any. Exit 2: bad input. --rules NAME checks that rule set (default hf-4.57), --rules all\n"
    "each of hf-4.57, hf-5.3 and hf-main.\n";

}  // namespace

int runCheckIdsCommand(const std::vector<std::string>& args) {
  std::string positionIds, rulesArg;
  const auto extra = [&](const std::string& name, const std::function<std::string()>& value) {
    if (name == "position-ids") {
      positionIds = value();
      if (positionIds.empty()) throw InputError("--position-ids needs a file name", "position-ids");
      return true;
    }
    if (name == "rules") {
      rulesArg = value();
      // An unknown name is refused now, with every accepted one: the rule sets and "all".
      checkRuleSetName(rulesArg, {"all"});
      return true;
    }
    return false;
  };
  const Request req = parseArguments(kCheckIds, args, extra);
  if (req.help) {
    std::cout << kHelp << optionsHelp(kCheckIds);
    return 0;
  }
  if (req.model.empty() || req.tokenIds.empty())
    throw InputError(
        "check-ids needs --model DIR|NAME and --tokens FILE.json (see ropescope "
        "check-ids --help)",
        "tokens");
  if (positionIds.empty())
    throw InputError("check-ids needs --position-ids P.npy (the model's position_ids)",
                     "position-ids");
  const std::vector<Id3> dump = withoutPadding(readPositionIdsDump(positionIds), req.tokenKept);

  std::vector<RuleSet> checked;
  if (rulesArg == "all")
    checked = {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain};
  else
    checked = {rulesArg.empty() ? RuleSet::Hf457 : parseRuleSet(rulesArg)};

  const IdsCheck result = checkPositionIds(req.scene, dump, checked, req.tokenIds, positionIds);
  std::cout << result.report;
  return result.identical ? 0 : 1;
}

}  // namespace ropescope::cli
