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
#include "program.h"
#include "ropescope/errors.h"
#include "ropescope/progress.h"
#include "ropescope/shipped_models.h"
#include "ropescope/shipped_samples.h"
#include "subcommands.h"

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
    cli::Command command;
    if (!args.empty() && cli::parseCommand(args[0], &command)) {
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      cli::beforeCommand(command);
      if (command == cli::kRender) return cli::runRenderCommand(rest);
      if (command == cli::kGrid) return cli::runGridCommand(rest);
      if (command == cli::kAttention) return cli::runAttentionCommand(rest);
      if (command == cli::kCheckIds) return cli::runCheckIdsCommand(rest);
      if (command == cli::kRotary) return cli::runRotaryCommand(rest);
      if (command == cli::kBudget) return cli::runBudgetCommand(rest);
      if (command == cli::kPrinciples) return cli::runPrinciplesCommand(rest);
      if (command == cli::kPixels) return cli::runPixelsCommand(rest);
      if (command == cli::kQkUsage) return cli::runQkUsageCommand(rest);
      if (command == cli::kLayers) return cli::runLayersCommand(rest);
      const cli::Request request = cli::parseArguments(command, rest);
      if (request.help) {
        std::cout << cli::commandHelp(command);
        return 0;
      }
      cli::printInputWarnings(request);
      cli::runCommand(request);
      return 0;
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
      for (cli::Command c : cli::kAllCommands) accepted += std::string(cli::commandName(c)) + ", ";
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
