// `ropescope principles`: the three design principles of multimodal RoPE (core principles.h) as a
// verdict on the scene's design, on every design side by side, or on the Revisiting paper's
// rows, printed as text or JSON (principles_report.h), or written atomically to --out.
#include <cstdio>
#include <iostream>

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/principles_report.h"

namespace ropescope::cli {

namespace {

struct PrinciplesOptions {
  PrinciplesFormat format = PrinciplesFormat::Text;
  PrinciplesRows rows = PrinciplesRows::Scene;
};

std::string principlesNotes() {
  char share[32];
  std::snprintf(share, sizeof share, "%g", kFullSpectrumShare);
  return std::string(
             "\nCoherence fails when a text token's id on some axis is at or below an earlier "
             "visual\ntoken's (the overlap of diagonal layouts); frequency use fails when an axis "
             "the ids use\nspans less than ") +
         share +
         " of the plan's log-frequency range; the textual prior fails when text\nalone does not "
         "get vanilla 1-D RoPE's ids and rotations. --designs revisiting without a\nlayout "
         "judges " +
         kRevisitingLayout + ". docs/math.md#design-principles.\n";
}

// Whether the command line names a layout of its own (--layout, --scene, --tokens).
bool givesLayout(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    for (const char* flag : {"--layout", "--scene", "--tokens"}) {
      const std::string f = flag;
      if (a == f || a.rfind(f + "=", 0) == 0) return true;
    }
  return false;
}

// Whether it asks for the Revisiting rows (--designs revisiting).
bool asksRevisiting(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--designs=revisiting" ||
        (args[i] == "--designs" && i + 1 < args.size() && args[i + 1] == "revisiting"))
      return true;
  return false;
}

}  // namespace

int runPrinciplesCommand(const std::vector<std::string>& given) {
  // The Revisiting rows without a layout are judged on the one they were pinned on.
  std::vector<std::string> args = given;
  if (asksRevisiting(given) && !givesLayout(given)) {
    args.push_back("--layout");
    args.push_back(kRevisitingLayout);
  }
  PrinciplesOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    if (name == "format")
      o.format = parsePrinciplesFormat(value());
    else if (name == "designs")
      o.rows = parsePrinciplesRows(value());
    else
      return false;
    return true;
  };
  const Request req = parseArguments(kPrinciples, args, extra);
  if (req.help) {
    std::cout << commandHelp(kPrinciples) << principlesNotes();
    return 0;
  }
  printInputWarnings(req);
  writeOutput(principlesReport(principlesRows(req.scene, o.rows), o.format), req.out);
  return 0;
}

}  // namespace ropescope::cli
