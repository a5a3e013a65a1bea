// The man page and the bash completion are generated from the option tables (the shared one and
// each subcommand's own, app/own_options.cpp): every option a command's --help lists must be in
// the command's section of the man page and among the options its completion offers, so the
// three never drift apart.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>

#include "cli_harness.h"

namespace fs = std::filesystem;
using namespace ropescope::cli_harness;

namespace {

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-docs-cli");
  return dir;
}

ProcessResult runCli(const std::vector<std::string>& args) {
  return runProcess(workDir(), workDir(), args);
}

// "--name" of every line of --help that starts with two spaces and an option.
std::set<std::string> helpOptions(const std::string& help) {
  std::set<std::string> out;
  const std::regex line(R"((^|\n)  (--[a-z0-9-]+))");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), line); it != std::sregex_iterator();
       ++it)
    out.insert((*it)[2].str());
  return out;
}

// The man page's section of one command: from ".SS NAME" to the next ".SS" or ".SH".
std::string manSection(const std::string& man, const std::string& command) {
  std::string roffName;
  for (char c : command) roffName += c == '-' ? std::string("\\-") : std::string(1, c);
  const std::size_t b = man.find(".SS " + roffName + "\n");
  if (b == std::string::npos) return {};
  const std::size_t e = std::min(man.find("\n.SS ", b + 1), man.find("\n.SH ", b + 1));
  return man.substr(b, e - b);
}

}  // namespace

TEST(CliDocs, ManPageAndCompletionListEveryOptionOfEveryHelp) {
  const ProcessResult man = runCli({"--man-page"});
  const ProcessResult comp = runCli({"--bash-completion"});
  ASSERT_EQ(man.status, 0) << man.err;
  ASSERT_EQ(comp.status, 0) << comp.err;
  std::vector<std::string> commands = {"ids",        "ptd",       "bias",      "decay",  "freqs",
                                       "grid",       "attention", "check-ids", "rotary", "budget",
                                       "principles", "pixels",    "qk-usage",  "layers"};
  if (ROPESCOPE_HAS_GUI) commands.push_back("render");  // its help is ropescope-gui's
  for (const std::string& c : commands) {
    SCOPED_TRACE(c);
    const ProcessResult help = runCli({c, "--help"});
    ASSERT_EQ(help.status, 0) << help.err;
    const std::set<std::string> options = helpOptions(help.out);
    EXPECT_GT(options.size(), 2u) << help.out;
    const std::string section = manSection(man.out, c);
    ASSERT_FALSE(section.empty());
    const std::regex opts("\n    " + c + R"re(\) opts="([^"]*)")re");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(comp.out, m, opts));
    const std::string offered = " " + m[1].str() + " ";
    for (const std::string& o : options) {
      std::string roffOption;
      for (char ch : o) roffOption += ch == '-' ? std::string("\\-") : std::string(1, ch);
      EXPECT_NE(section.find(".B " + roffOption), std::string::npos) << o << " not in the man page";
      EXPECT_NE(offered.find(" " + o + " "), std::string::npos) << o << " not completed";
    }
  }
}

// Values complete per command: render --preset names a figure, grid --preset an image processor.
TEST(CliDocs, CompletionValuesDependOnTheCommand) {
  const ProcessResult comp = runCli({"--bash-completion"});
  ASSERT_EQ(comp.status, 0) << comp.err;
  EXPECT_NE(comp.out.find("grid:--preset) COMPREPLY=($(compgen -W \"qwen2.5-vl"),
            std::string::npos);
  EXPECT_EQ(comp.out.find("render:--preset) COMPREPLY=($(compgen -W \"qwen2.5-vl"),
            std::string::npos);
  EXPECT_NE(
      comp.out.find("check-ids:--rules) COMPREPLY=($(compgen -W \"hf-4.57 hf-5.3 hf-main 4.45.0"),
      std::string::npos);
  EXPECT_NE(comp.out.find("vrope"), std::string::npos);
}

// The top-level forms are written once (app/cli_docs.h): --help's usage lines, their
// descriptions in one column, and the man page's synopsis say the same three forms.
TEST(CliDocs, UsageLinesAndSynopsisShowTheSameForms) {
  const ProcessResult help = runCli({"--help"});
  const ProcessResult man = runCli({"--man-page"});
  ASSERT_EQ(help.status, 0) << help.err;
  ASSERT_EQ(man.status, 0) << man.err;
  const std::regex usage(R"((usage:|      ) ropescope (.*?)   +(\S.*)\n)");
  std::vector<std::string> forms;
  std::set<std::size_t> columns;
  for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), usage);
       it != std::sregex_iterator(); ++it) {
    forms.push_back((*it)[2].str());
    columns.insert(static_cast<std::size_t>((*it).position(3) - (*it).position(0)));
  }
  ASSERT_EQ(forms.size(), 3u) << help.out;
  EXPECT_EQ(forms[0], "[FILE.json]");
  EXPECT_EQ(forms[1], "COMMAND [options]");
  EXPECT_EQ(forms[2], "--version | --help");
  EXPECT_EQ(columns.size(), 1u) << "descriptions not in one column:\n" << help.out;
  const std::size_t synopsis = man.out.find(".SH SYNOPSIS\n");
  const std::size_t description = man.out.find(".SH DESCRIPTION\n");
  ASSERT_LT(synopsis, description);
  const std::string part = man.out.substr(synopsis, description - synopsis);
  EXPECT_NE(part.find(".B ropescope\n[\\fIFILE.json\\fR]\n"), std::string::npos) << part;
  EXPECT_NE(part.find(".B ropescope\n\\fICOMMAND\\fR [options]\n"), std::string::npos) << part;
  EXPECT_NE(part.find(".B ropescope\n\\-\\-version | \\-\\-help\n"), std::string::npos) << part;
}

// An option that several commands take is one row of the tables: every command's --help
// describes it alike. The exceptions name different things per command: --preset is a figure to
// render and an image processor to grid; --out and --format are a table for the table commands, a
// .npy for attention, a picture for render, a folder for rotary; check-ids --rules is the rule sets
// to check, not the scene's; --q and --k are attention's inputs (q heads a multiple of k heads),
// rotary's arrays to rotate (each on its own, written back rotated) and qk-usage's layer.
TEST(CliDocs, AnOptionOfSeveralCommandsIsDescribedOnce) {
  std::vector<std::string> commands = {"ids",        "ptd",       "bias",      "decay",  "freqs",
                                       "grid",       "attention", "check-ids", "rotary", "budget",
                                       "principles", "pixels",    "qk-usage",  "layers"};
  if (ROPESCOPE_HAS_GUI) commands.push_back("render");
  std::map<std::string, std::map<std::string, std::string>> lines;  // option -> command -> line
  const std::regex line(R"((^|\n)  (--[a-z0-9-]+)[^\n]*)");
  for (const std::string& c : commands) {
    const ProcessResult help = runCli({c, "--help"});
    ASSERT_EQ(help.status, 0) << help.err;
    for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), line);
         it != std::sregex_iterator(); ++it) {
      std::string text = (*it)[0].str();
      if (!text.empty() && text[0] == '\n') text.erase(0, 1);
      lines[(*it)[2].str()][c] = text;
    }
  }
  ASSERT_EQ(lines["--threads"].size(), 5u);  // ptd, bias, decay, attention, qk-usage
  if (ROPESCOPE_HAS_GUI) ASSERT_EQ(lines["--max-distance"].size(), 2u);  // decay, render
  for (const auto& [option, byCommand] : lines) {
    if (option == "--preset" || option == "--out" || option == "--format" || option == "--rules" ||
        option == "--q" || option == "--k")
      continue;
    for (const auto& [command, text] : byCommand)
      EXPECT_EQ(text, byCommand.begin()->second)
          << option << " in " << command << " and " << byCommand.begin()->first;
  }
}
