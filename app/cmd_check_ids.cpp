// `ropescope check-ids --model M --tokens T.json --position-ids P.npy [--rules NAME|all]`:
// compares the position_ids a model computed (dumped from transformers) with the family's
// get_rope_index under a rule set, token by token. Exit 0 when they are identical, 1 when they
// differ (the first differing token, how many differ, and which rule set the dump matches, if
// any), 2 for bad input.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_options.h"
#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
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
    "each of hf-4.57, hf-5.3 and hf-main.\n\n"
    "options:\n"
    "  --position-ids P.npy        the model's position_ids (np.save(P, ids.cpu().numpy()))\n"
    "  --rules NAME|all            hf-4.57, hf-5.3, hf-main or all\n";

const char* ruleSetStory(RuleSet r) {
  switch (r) {
    case RuleSet::Hf457:
      return "transformers up to 5.2";
    case RuleSet::Hf53:
      return "the 5.3.0-5.5.3 rewrite";
    case RuleSet::HfMain:
      return "transformers after PRs #45330, #45400 and #48669";
  }
  return "";
}

// The dump as (t, h, w) per token.
std::vector<Id3> dumpedIds(const NpyNumbers& a, const std::string& path) {
  const auto& s = a.shape;
  const std::string where = "position ids \"" + path + "\"";
  std::string shape = "[";
  for (std::size_t i = 0; i < s.size(); ++i) shape += (i ? ", " : "") + std::to_string(s[i]);
  shape += "]";
  const bool ok = (s.size() == 2 || (s.size() == 3 && s[1] == 1)) && (s[0] == 3 || s[0] == 4);
  if (s.size() == 3 && s[1] != 1 && (s[0] == 3 || s[0] == 4))
    throw InputError(where + " holds a batch of " + std::to_string(s[1]) + " sequences (shape " +
                         shape + "); dump one: ids[:, :1]",
                     "position-ids");
  if (!ok)
    throw InputError(
        where + " must be [3, N], [3, 1, N], [4, N] or [4, 1, N] (got shape " + shape + ")",
        "position-ids");
  const std::size_t n = s.back();
  const std::size_t skip = s[0] == 4 ? 1 : 0;  // [4, ...]: row 0 is the text positions
  std::vector<Id3> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a3 = 0; a3 < 3; ++a3) {
      const double v = a.data[(a3 + skip) * n + i];
      if (!std::isfinite(v))
        throw InputError(where + " holds a non-finite value at token " + std::to_string(i),
                         "position-ids");
      out[i][a3] = v;
    }
  return out;
}

std::string idText(const Id3& id) {
  return "(" + formatDouble(id[0]) + ", " + formatDouble(id[1]) + ", " + formatDouble(id[2]) + ")";
}

struct Comparison {
  std::optional<std::string> failure;  // the rule set cannot compute this input
  std::size_t differ = 0;
  std::size_t first = 0;
  PositionIds ids;
};

Comparison compare(const Scene& scene, RuleSet rules, const std::vector<Id3>& dump) {
  Comparison c;
  ParameterSet params = scene.designParams;
  params.set("rules", static_cast<double>(rules));
  try {
    c.ids = findDesign(scene.design).ids(scene.layout, params);
  } catch (const InputError& e) {
    c.failure = e.what();
    return c;
  }
  for (std::size_t i = 0; i < dump.size(); ++i)
    if (c.ids.ids[i] != dump[i]) {
      if (c.differ++ == 0) c.first = i;
    }
  return c;
}

std::string firstDifference(const Comparison& c, const std::vector<Id3>& dump,
                            const std::vector<long long>& tokenIds) {
  const std::size_t i = c.first;
  const TokenInfo& t = c.ids.tokens[i];
  std::string s = "token " + std::to_string(i) + " (" + modalityName(t.modality);
  if (t.modality != Modality::Text)
    s += ", cell " + std::to_string(t.frame) + "," + std::to_string(t.row) + "," +
         std::to_string(t.col);
  if (i < tokenIds.size()) s += ", token id " + std::to_string(tokenIds[i]);
  s += "): ropescope " + idText(c.ids.ids[i]) + ", dump " + idText(dump[i]);
  return s;
}

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
      if (rulesArg != "all") parseRuleSet(rulesArg);  // refuses an unknown name now
      return true;
    }
    return false;
  };
  const Request req = parseArguments(kCheckIds, args, extra);
  if (req.help) {
    std::cout << kHelp << sharedOptionsHelp(kCheckIds);
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
  const NpyNumbers array = readNpyNumbers(positionIds, "position ids");
  const std::vector<Id3> dump = dumpedIds(array, positionIds);
  const std::size_t n = req.scene.layout.tokenCount();
  if (dump.size() != n)
    throw InputError("position ids \"" + positionIds + "\" hold " + std::to_string(dump.size()) +
                         " tokens, the tokens file " + std::to_string(n) +
                         " (after dropping padding): dump the same inputs",
                     "position-ids");

  std::vector<RuleSet> checked;
  if (rulesArg == "all")
    checked = {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain};
  else
    checked = {rulesArg.empty() ? RuleSet::Hf457 : parseRuleSet(rulesArg)};

  std::vector<Comparison> results;
  std::string identical;
  for (RuleSet r : checked) {
    results.push_back(compare(req.scene, r, dump));
    if (!results.back().failure && results.back().differ == 0)
      identical += std::string(identical.empty() ? "" : ", ") + ruleSetName(r);
  }
  std::ostringstream o;
  if (!identical.empty()) {
    o << "identical (" << n << " tokens, " << identical << ")\n";
    std::string same;  // the rule sets not asked for that give these ids too
    for (RuleSet r : {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain}) {
      if (std::find(checked.begin(), checked.end(), r) != checked.end()) continue;
      const Comparison c = compare(req.scene, r, dump);
      if (!c.failure && c.differ == 0)
        same += std::string(same.empty() ? "" : ", ") + ruleSetName(r);
    }
    if (!same.empty())
      o << same << " give" << (same.find(',') == std::string::npos ? "s" : "")
        << " the same ids for this sequence\n";
    std::cout << o.str();
    return 0;
  }
  for (std::size_t k = 0; k < checked.size(); ++k) {
    const Comparison& c = results[k];
    o << ruleSetName(checked[k]) << ": ";
    if (c.failure)
      o << "cannot compute this input: " << *c.failure << "\n";
    else
      o << "differs at " << firstDifference(c, dump, req.tokenIds) << "; " << c.differ << " of "
        << n << " tokens differ\n";
  }
  // Which other rule set the dump follows.
  std::string matches;
  for (RuleSet r : {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain}) {
    if (std::find(checked.begin(), checked.end(), r) != checked.end()) continue;
    const Comparison c = compare(req.scene, r, dump);
    if (!c.failure && c.differ == 0)
      matches += std::string(matches.empty() ? "" : "; ") + ruleSetName(r) + ": " + ruleSetStory(r);
  }
  o << (matches.empty() ? std::string("matches no rule set (hf-4.57, hf-5.3, hf-main)")
                        : "matches " + matches)
    << "\n";
  std::cout << o.str();
  return 1;
}

}  // namespace ropescope::cli
