// ropescope entry point: the GUI when started without a subcommand (or with a scene file), the
// command-line subcommands otherwise. Bad input: one line on stderr, exit status 2.
// Shared by both programs; what differs between `ropescope` and ropescope-gui is in program.h.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_commands.h"
#include "cli_docs.h"
#include "cli_options.h"
#include "cli_parser.h"
#include "command_table.h"
#include "program.h"
#include "ropescope/errors.h"
#include "ropescope/progress.h"
#include "ropescope/shipped_models.h"
#include "ropescope/shipped_samples.h"

namespace {

void printUsage(std::ostream& o) {
  using namespace ropescope::cli;
  o << "ropescope " << ROPESCOPE_VERSION
    << " - geometry of rotary position embeddings in vision-language models\n\n"
    << usageLines();
  o << commandsHelp();
  o << "\n'ropescope COMMAND --help' lists a command's options.\n";
}

}  // namespace

static int run(int argc, char** argv) {
  using namespace ropescope;
  std::vector<std::string> args(argv + 1, argv + argc);
  installShippedModels();
  installShippedSamples();
  try {
    // A subcommand: its row of the command table (commands.inc) runs it.
    if (const cli::CommandRow* row = args.empty() ? nullptr : cli::findCommand(args[0])) {
      cli::beforeCommand(*row);
      return row->run(std::vector<std::string>(args.begin() + 1, args.end()));
    }
    // Hidden: the build writes the man page and the bash completion with these (cli_docs.h).
    if (args.size() == 1 && (args[0] == "--man-page" || args[0] == "--bash-completion")) {
      std::cout << (args[0] == "--man-page" ? cli::manPage() : cli::bashCompletion());
      return 0;
    }
    if (!args.empty() && args[0] == "--version") {
      if (args.size() > 1)
        throw InputError("--version takes nothing after it (got \"" + args[1] + "\")");
      std::cout << "ropescope " << ROPESCOPE_VERSION << "\n";
      return 0;
    }
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      printUsage(std::cout);
      return 0;
    }
    const bool sceneArg = args.size() == 1 && args[0].size() > 5 &&
                          args[0].compare(args[0].size() - 5, 5, ".json") == 0;
    if (!args.empty() && !sceneArg) {
      std::string accepted;
      for (const cli::CommandRow& row : cli::commandTable())
        accepted += std::string(row.name) + ", ";
      // An InputError: its message shows the name's control bytes as \xHH, in one line.
      throw InputError("unknown command \"" + args[0] + "\" (accepted: " + accepted +
                       "or a scene FILE.json)");
    }
    return cli::runDesktop(argc, argv, args);
  } catch (const InputError& e) {
    std::cerr << "ropescope: " << e.what() << "\n";
    return 2;
  } catch (const Cancelled& e) {  // Ctrl-C during a metric: nothing was written
    std::cerr << "ropescope: " << e.what() << "\n";
    return 130;
  } catch (const std::bad_alloc&) {
    std::cerr << "ropescope: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ropescope: " << e.what() << "\n";
    return 2;
  }
}

// What was printed must have reached the standard output: a full disk or a closed stream
// (`> /dev/full`, `>&-`) is an error of its own, said in one line, not a silent exit 0.
int main(int argc, char** argv) {
  const int status = run(argc, argv);
  if (status != 0) return status;  // said already
  std::cout.flush();
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout) return status;
  std::cerr << "ropescope: cannot write the standard output\n";
  return 2;
}
