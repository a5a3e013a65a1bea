// `ropescope budget`: the id budget (core id_budget.h) of a layout, scene or processor output:
// the largest position id per axis against the tokens and the trained length, printed as text,
// JSON or CSV (id_budget_report.h), or written atomically to --out.
#include <iostream>

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/id_budget.h"
#include "ropescope/id_budget_report.h"

namespace ropescope::cli {

namespace {

struct BudgetOptions {
  BudgetFormat format = BudgetFormat::Text;
  long long points = static_cast<long long>(kDefaultBudgetPoints);
  long long trainedLength = 0;  // 0: from the rope or the model config
};

const char* kBudgetNotes =
    "\nThe trained length L is --trained-length, else the rope scaling's\n"
    "original_max_position_embeddings (or max_position_embeddings), else the --model config's\n"
    "max_position_embeddings; without one every ratio is n/a. The YaRN factor that covers the\n"
    "layout is (largest id + 1) / L, the length transformers' forward compares; tokens / L\n"
    "beside it. docs/long-context.md#the-id-budget explains each number.\n";

bool readBudgetOption(BudgetOptions& o, const std::string& name,
                      const std::function<std::string()>& value) {
  if (name == "format")
    o.format = parseBudgetFormat(value());
  else if (name == "points")
    o.points = ownWhole(kBudget, "points", value());
  else if (name == "trained-length")
    o.trainedLength = ownWhole(kBudget, "trained-length", value());
  else
    return false;
  return true;
}

}  // namespace

int runBudgetCommand(const std::vector<std::string>& args) {
  BudgetOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    return readBudgetOption(o, name, value);
  };
  const Request req = parseArguments(kBudget, args, extra);
  if (req.help) {
    std::cout << commandHelp(kBudget) << kBudgetNotes;
    return 0;
  }
  printInputWarnings(req);
  const IdBudget budget = sceneIdBudget(req.scene, req.modelMaxPositions, o.trainedLength,
                                        static_cast<std::size_t>(o.points));
  writeOutput(idBudgetReport(budget, o.format), req.out);
  return 0;
}

}  // namespace ropescope::cli
