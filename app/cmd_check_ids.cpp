// `ropescope check-ids --model M --tokens T.json --position-ids P.npy [--rope-deltas D]
// [--rules NAME|all] [--row N]`: compares the position_ids a model computed (dumped from
// transformers) with the family's get_rope_index under a rule set (a transformers release or a
// named set), token by token, and names every release that gives the same ids. A padded batch
// (tokens [B, N], ids [3, B, N]) is checked row by row. Exit 0 when identical (every row), 1 when
// not, 2 for bad input.
#include <iostream>

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_parser.h"
#include "command_table.h"
#include "ropescope/check_ids.h"
#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/transformers_release.h"

namespace ropescope::cli {

namespace {

std::string help() {
  const auto& r = transformersReleases();
  return "usage: ropescope check-ids --model DIR|NAME --tokens FILE.json|FILE.npz\n"
         "                           --position-ids P.npy [--rope-deltas D.npy|N[,N...]]\n"
         "                           [--rules RELEASE|NAME|all] [--row N]\n"
         "Compares a position_ids tensor dumped from the model ([3, N], Hugging Face's [3, B, N],\n"
         "or [4, ...] whose first row is the text positions of the v5 generation ids; int64 or\n"
         "float) with the ids ropescope computes for the tokens file under the family's\n"
         "get_rope_index, and names the transformers releases that give the same ids (and the\n"
         "same rope_deltas, as each release returns them, when --rope-deltas is given).\n"
         "Exit 0: \"identical (N tokens, RULES): matches transformers RELEASES\". Exit 1: the\n"
         "first differing token (index, modality, grid cell, both ids), how many differ, and the\n"
         "releases the dump matches, or \"matches no release\". Exit 2: bad input.\n"
         "--rules RELEASE checks that release (" +
         r.front() + " ... " + r[r.size() - 2] + ", main), --rules NAME a named set (" +
         ruleSetAliasesText() +
         "; default hf-4.57), --rules all every release. A batch (input_ids [B, N]) is checked\n"
         "row by row against [3, B, N] ids; --row N checks one row.\n";
}

// --rope-deltas: a .npy ([B] or [B, 1]) or numbers "-11" / "-11,-9", one per row.
std::vector<double> ropeDeltas(const std::string& arg) {
  std::vector<double> out;
  if (arg.size() > 4 && arg.compare(arg.size() - 4, 4, ".npy") == 0) {
    const NpyNumbers a = readNpyNumbers(arg, "rope_deltas");
    if (a.shape.size() > 2 || (a.shape.size() == 2 && a.shape[1] != 1))
      throw InputError("rope_deltas \"" + arg + "\" must be [B] or [B, 1]", "rope-deltas");
    return a.data;
  }
  std::size_t at = 0;
  while (at <= arg.size()) {
    const std::size_t comma = std::min(arg.find(',', at), arg.size());
    out.push_back(parseNumberAs("--rope-deltas", "rope-deltas", arg.substr(at, comma - at),
                                "a number per row"));
    at = comma + 1;
  }
  return out;
}

}  // namespace

int runCheckIdsCommand(const std::vector<std::string>& args) {
  std::string positionIds, rulesArg, deltasArg;
  const auto extra = [&](const std::string& name, const std::function<std::string()>& value) {
    if (name == "position-ids") {
      positionIds = value();
      if (positionIds.empty()) throw InputError("--position-ids needs a file name", "position-ids");
      return true;
    }
    if (name == "rope-deltas") {
      deltasArg = value();
      if (deltasArg.empty())
        throw InputError("--rope-deltas needs a file or numbers", "rope-deltas");
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
    std::cout << help() << optionsHelp(kCheckIds);
    return 0;
  }
  printInputWarnings(req);  // a run read as transformers reads it, before the verdict
  if (req.model.empty() || req.tokenIds.empty())
    throw InputError(
        "check-ids needs --model DIR|NAME and --tokens FILE.json (see ropescope "
        "check-ids --help)",
        "tokens");
  if (!familyOfDesign(req.scene.design))
    throw InputError("check-ids compares a multimodal family's get_rope_index; model \"" +
                         req.model + "\" is a text-only model (its ids are 0, 1, 2, ...)",
                     "model");
  if (positionIds.empty())
    throw InputError("check-ids needs --position-ids P.npy (the model's position_ids)",
                     "position-ids");
  const std::vector<std::vector<Id3>> dumpRows =
      dumpedPositionIdRows(readNpyNumbers(positionIds, "position ids"), positionIds);
  const std::size_t rows = req.tokenRows.size();
  if (dumpRows.size() != rows)
    throw InputError("position ids \"" + positionIds + "\" hold " +
                         countOf(static_cast<long long>(dumpRows.size()), "row") +
                         ", the tokens file " + countOf(static_cast<long long>(rows), "row") +
                         ": dump the same batch",
                     "position-ids");
  std::vector<double> deltas;
  if (!deltasArg.empty()) {
    deltas = ropeDeltas(deltasArg);
    if (deltas.size() != rows)
      throw InputError("--rope-deltas gives " +
                           countOf(static_cast<long long>(deltas.size()), "value") +
                           ", the tokens file has " + countOf(static_cast<long long>(rows), "row"),
                       "rope-deltas");
  }

  std::vector<RuleSet> checked;
  if (rulesArg == "all")
    checked = everyReleaseClass(familyOfDesign(req.scene.design)->name());
  else
    checked = {rulesArg.empty() ? RuleSet::Hf457 : parseRuleSet(rulesArg)};

  bool identical = true;
  for (std::size_t b = 0; b < rows; ++b) {
    if (req.rowGiven && b != static_cast<std::size_t>(req.row)) continue;
    const TokenInput& row = req.tokenRows[b];
    Scene scene = req.scene;
    scene.layout = req.rowLayouts[b];
    IdsDump dump;
    dump.ids = withoutPadding(dumpRows[b], row.kept);
    dump.padding = paddingOf(dumpRows[b], row.kept);
    dump.paddedLength = row.kept.size();
    if (!deltas.empty()) dump.ropeDelta = deltas[b];
    if (rows > 1) dump.batch = req.rowLayouts;
    const std::vector<long long> tokenIds(row.inputIds.begin(), row.inputIds.end());
    const IdsCheck result = checkPositionIds(scene, dump, checked, tokenIds, positionIds);
    identical = identical && result.identical;
    if (rows == 1) {
      std::cout << result.report;
      continue;
    }
    // One block per row, its lines prefixed "row b: ".
    std::size_t at = 0;
    while (at < result.report.size()) {
      const std::size_t nl = result.report.find('\n', at);
      std::cout << "row " << b << ": " << result.report.substr(at, nl - at + 1);
      at = nl + 1;
    }
  }
  return identical ? 0 : 1;
}

}  // namespace ropescope::cli
