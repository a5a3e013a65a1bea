// The command table (app/commands.inc) is the one list of subcommands: every row has a name, a
// summary and a run function, no name is given twice, and each row reaches the top-level
// --help, the man page, the bash completion, the unknown-command message and its own --help
// through the built program, so that adding a subcommand is adding a row.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli_harness.h"
#include "cli_options.h"

namespace fs = std::filesystem;
using namespace ropescope::cli_harness;
using ropescope::cli::commandName;
using ropescope::cli::commandSummary;
using ropescope::cli::kAllCommands;

namespace {

const fs::path& commandTableWorkDir() {
  static const fs::path dir = makeWorkDir("ropescope-command-table");
  return dir;
}

ProcessResult runCommandTableCli(const std::vector<std::string>& args) {
  return runProcess(commandTableWorkDir(), commandTableWorkDir(), args);
}

// A word as the man page writes it (roff: hyphens as \-).
std::string roffWord(const std::string& word) {
  std::string out;
  for (char c : word) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

}  // namespace

TEST(CommandTable, EveryRowHasAUniqueNameAndASummary) {
  std::set<std::string> names;
  for (auto c : kAllCommands) {
    const std::string name = commandName(c), summary = commandSummary(c);
    SCOPED_TRACE(name);
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz-"), std::string::npos);
    EXPECT_FALSE(summary.empty());
    EXPECT_EQ(summary.find('\n'), std::string::npos);
    EXPECT_TRUE(names.insert(name).second) << "given twice";
    ropescope::cli::Command parsed{};
    ASSERT_TRUE(ropescope::cli::parseCommand(name, &parsed));
    EXPECT_EQ(parsed, c);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(ropescope::cli::kCommandCount));
}

TEST(CommandTable, EveryRowIsInTheHelpTheManPageAndTheCompletion) {
  const ProcessResult help = runCommandTableCli({"--help"});
  const ProcessResult man = runCommandTableCli({"--man-page"});
  const ProcessResult comp = runCommandTableCli({"--bash-completion"});
  ASSERT_EQ(help.status, 0) << help.err;
  ASSERT_EQ(man.status, 0) << man.err;
  ASSERT_EQ(comp.status, 0) << comp.err;
  // The "commands:" section of --help lists the rows and nothing else, in table order.
  const std::size_t b = help.out.find("commands:\n");
  ASSERT_NE(b, std::string::npos) << help.out;
  const std::size_t e = help.out.find("\n\n", b);
  std::string expected = "commands:\n";
  for (auto c : kAllCommands) {
    std::string name = commandName(c);
    expected += "  " + name + std::string(name.size() < 11 ? 11 - name.size() : 1, ' ') +
                commandSummary(c) + "\n";
  }
  EXPECT_EQ(help.out.substr(b, e + 1 - b), expected);
  std::string allNames;
  for (auto c : kAllCommands) {
    const std::string name = commandName(c);
    SCOPED_TRACE(name);
    EXPECT_NE(man.out.find(".SS " + roffWord(name) + "\n" + roffWord(commandSummary(c)) + "\n"),
              std::string::npos);
    EXPECT_NE(comp.out.find("\n    " + name + ") opts=\"--"), std::string::npos);
    allNames += (allNames.empty() ? "" : " ") + name;
  }
  // The completion offers the rows, in order, as the first word.
  EXPECT_NE(comp.out.find("compgen -W \"" + allNames + "\""), std::string::npos) << comp.out;
}

TEST(CommandTable, EveryRowRunsItsOwnHelp) {
  for (auto c : kAllCommands) {
    const std::string name = commandName(c);
    SCOPED_TRACE(name);
    const ProcessResult r = runCommandTableCli({name, "--help"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("usage: ropescope " + name + " ", 0), 0u) << r.out;
  }
}

TEST(CommandTable, AnUnknownCommandListsEveryRow) {
  const ProcessResult r = runCommandTableCli({"no-such-command"});
  EXPECT_EQ(r.status, 2);
  std::string accepted;
  for (auto c : kAllCommands) accepted += std::string(commandName(c)) + ", ";
  EXPECT_EQ(r.err, "ropescope: unknown command \"no-such-command\" (accepted: " + accepted +
                       "or a scene FILE.json)\n");
}
