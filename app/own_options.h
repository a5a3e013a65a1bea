// The options a subcommand parses itself, on top of the shared table of cli_options.cpp:
// declared here once, so the subcommand's --help, the man page and the bash completion
// (cli_docs.cpp) list the same options. The parsing stays with the subcommand (cmd_*.cpp).
#pragma once

#include <string>
#include <vector>

#include "cli_options.h"

namespace ropescope::cli {

struct OwnOption {
  Command command;
  const char* name;  // "rows"
  const char* arg;   // "A:B"; nullptr for a flag
  const char* help;  // one paragraph; --help wraps it
};

const std::vector<OwnOption>& ownOptions();

// The "  --name ARG   help" lines of a command's own options, wrapped as --help prints them.
std::string ownOptionsHelp(Command command);

}  // namespace ropescope::cli
