// The subcommands as rows (commands.inc): name, summary, run function and the program that runs
// each. main.cpp dispatches through the rows; --help, the man page, the bash completion and the
// unknown-command message list them (cli_parser.h, cli_docs.h). Compiled into both programs.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cli_options.h"

namespace ropescope::cli {

// Which program runs a subcommand (app/CMakeLists.txt, program.h).
enum class Program {
  Front,       // `ropescope` itself (and ropescope-gui, which runs everything)
  Gui,         // ropescope-gui only: it needs Qt or VTK, the front execs ropescope-gui
  FrontOrGpu,  // the front on the CPU; ropescope-gui on the GPU (it starts Qt)
};

// A run function: the arguments after the subcommand's name in, the exit status out; bad input
// throws InputError (main says it in one line, exit status 2).
using RunCommand = int (*)(const std::vector<std::string>& args);

struct CommandRow {
  Command command;  // its bit in the option table's masks
  const char* name;
  const char* summary;
  RunCommand run;
  Program program;
};

// The run function of every row, each defined in its own file (cmd_NAME.cpp; the five table
// commands in cli_commands.cpp; render's in cmd_render.cpp for ropescope-gui and
// front_program.cpp for the front).
#define ROPESCOPE_COMMAND(id, name, summary, run, program) \
  int run(const std::vector<std::string>& args);
#include "commands.inc"
#undef ROPESCOPE_COMMAND

// Every row, in help order.
std::span<const CommandRow> commandTable();
// The row of `command`.
const CommandRow& commandRow(Command command);
// The row named `name`, or nullptr.
const CommandRow* findCommand(const std::string& name);

}  // namespace ropescope::cli
