// The one command-line parser: CLI11 (Debian's libcli11-dev, header-only, as F3D uses it) with
// every option of a subcommand declared to it from the option tables (the shared table of
// cli_options.cpp and the own options of own_options.cpp). CLI11 splits the arguments (values
// by "--name value" or "--name=value", flags, "--", stray words) and lays out --help; what an
// option does stays with the table walk (parseArguments) and the subcommands.
#pragma once

#include <string>
#include <vector>

#include "cli_options.h"

namespace ropescope::cli {

// Every table row that `command` takes: the shared table's, then the command's own.
std::vector<OptionInfo> optionsOf(Command command);

struct GivenOption {
  std::string name;   // "layout", without the dashes
  std::string value;  // "" for a flag
};

struct CommandLine {
  std::vector<GivenOption> options;     // in command-line order, repeats included
  std::vector<std::string> positional;  // words that are not options, and all after "--"
};

// `args` split by CLI11 over optionsOf(command). Throws InputError with one line for an unknown
// option, a missing value, a value given to a flag, and (unless `acceptPositional`) a stray word.
CommandLine splitCommandLine(Command command, const std::vector<std::string>& args,
                             bool acceptPositional);

// The "options:" and "COMMAND options:" sections of a command's --help: CLI11's layout of the
// table rows (name and argument in one column, the help wrapped beside it).
std::string optionsHelp(Command command);

// The "commands:" section of the top-level --help: each command and its summary.
std::string commandsHelp();

}  // namespace ropescope::cli
