// Command-line options of the ropescope subcommands: declared once in a table that both the
// parser and --help read, and parsed into a Scene plus output settings.
#pragma once

#include <string>
#include <vector>

#include "ropescope/position_ids.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"

namespace ropescope::cli {

enum Command : unsigned { kIds = 1, kPtd = 2, kBias = 4, kDecay = 8, kFreqs = 16 };

struct Request {
  Command command = kIds;
  Scene scene;
  bool help = false;
  TableFormat format = TableFormat::Json;
  std::string out;
  int threads = 1;
  Id3 direction{1.0, 1.0, 1.0};
  int maxDistance = 256;
  bool subsetForm = false;
  double contextLength = 32768.0;
};

const char* commandName(Command c);
bool parseCommand(const std::string& name, Command* out);
// One-line summary per subcommand, for the top-level help.
const char* commandSummary(Command c);

// Throws InputError with a one-line message for any bad option or value.
Request parseArguments(Command command, const std::vector<std::string>& args);

std::string commandHelp(Command command);

}  // namespace ropescope::cli
