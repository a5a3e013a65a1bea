// One voice for every message: a table of bad command lines and bad
// scene files, each with the exact line the CLI must print on stderr and exit status 2. A change
// to a message shows up here as a diff a person can read.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace fs = std::filesystem;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-cli-messages");
  return dir;
}

// Scene files the table refers to by name (relative: the CLI runs in workDir()).
void writeScenes() {
  const std::string head = R"({"format": "ropescope-scene", "version": 1, )";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"huge.json", head + "\"layout\": \"t2,i2x2\",\n\"frequency\": {\"base\": 1e400}}"},
      {"twice.json", head + R"("layout": "t2,i2x2", "design": "hard", "layout": "t3"})"},
      {"twice-inner.json",
       head + R"("layout": "t2,i2x2", "frequency": {"plan": "mrope", "plan": "vanilla"}})"},
      {"selected.json", head + R"("layout": "t2,i2x2", "selected_text": 5})"},
      {"selected-none.json", head + R"("layout": "i2x2", "selected_text": 1})"},
      {"selected-ok.json", head + R"("layout": "t2,i2x2", "selected_text": 1})"},
  };
  for (const auto& [name, text] : files) std::ofstream(workDir() / name) << text;
}

struct Case {
  std::vector<std::string> args;
  std::string message;  // the whole stderr line, without "ropescope: " and the newline
};

const std::vector<Case>& cases() {
  static const std::vector<Case> table = {
      // 13: nothing to measure is undefined, not 0
      {{"ptd", "--layout", "t5"},
       "PTD needs at least one text and one visual token (layout has 5 text, 0 visual)"},
      {{"ptd", "--layout", "i3x3"},
       "PTD needs at least one text and one visual token (layout has 0 text, 9 visual)"},
      {{"bias", "--layout", "t5"},
       "bias spread needs at least one text and one visual token (layout has 5 text, 0 visual)"},
      // 14: selected_text is checked against the layout
      {{"ptd", "--scene", "selected.json"},
       "scene file \"selected.json\": selected_text must be 0..1 (the layout has 2 text tokens; "
       "got 5)"},
      {{"ids", "--scene", "selected-none.json"},
       "scene file \"selected-none.json\": selected_text must be 0 (the layout has 0 text "
       "tokens; got 1)"},
      // 16: the image-grid options belong to every layout command, with --layout
      {{"ptd", "--scene", "selected-ok.json", "--patch", "16"},
       "--patch sets how --layout's pictures become grids; give it with --layout (a scene file "
       "keeps its own image_grid)"},
      {{"ids", "--layout", "t2", "--merge", "17"},
       "--merge expects a whole number in 1..16 (got \"17\")"},
      {{"render", "--layout", "t2", "--grid-preset", "qwen9"},
       "unknown image grid preset \"qwen9\" (accepted: qwen2.5-vl, qwen3-vl, glm4v, ernie4.5-vl)"},
      {{"grid", "--preset", "qwen3-vl", "--grid-preset", "qwen3-vl", "x.png"},
       "--preset and --grid-preset both name the image-grid preset"},
      {{"attention", "--layout", "t2,i2x2", "--min-pixels", "9", "--max-pixels", "8"},
       "min_pixels (9) must not be above max_pixels (8)"},
      // 17: contradictions and repeats
      {{"decay", "--axis", "t", "--direction", "0,1,0"},
       "give either --axis or --direction, not both"},
      {{"decay", "--direction", "0,1,0", "--axis", "t"},
       "give either --axis or --direction, not both"},
      {{"decay", "--direction", "0,0,0"},
       "--direction must not be 0,0,0 (give a nonzero t,h,w direction)"},
      {{"decay", "--base", "1e4", "--base", "1e6"}, "--base given twice"},
      {{"attention", "--layout", "t2,i2x2", "--causal", "--causal"}, "--causal given twice"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "alpha=0.1", "--param", "alpha=0.2"},
       "--param alpha given twice"},
      {{"ptd", "--layout", "t2,i2x2", "--alpha", "0.1", "--param", "alpha=0.2"},
       "--alpha and --param alpha both set alpha"},
      {{"ptd", "--scene", "twice.json"}, "scene file \"twice.json\": key \"layout\" given twice"},
      {{"ptd", "--scene", "twice-inner.json"},
       "scene file \"twice-inner.json\": key \"plan\" given twice"},
      // 18: the user's words, not the internals'
      {{"ptd", "--layout", "t2,i2x2", "--design", "mrope", "--radius", "5"},
       "--radius applies to design circle (the design is mrope)"},
      {{"ptd", "--layout", "t2,i2x2", "--design", "hard", "--alpha", "0.5"},
       "--alpha applies to design circle (the design is hard)"},
      {{"ptd", "--layout", "t2,i2x2", "--radius", "auto-0"},
       "--radius auto-K: K must be in (0, 1000] (got 0)"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "alpha=nan"},
       "--param alpha must be a finite number in [0, 1] (got \"nan\")"},
      {{"ptd", "--layout", "t2,i2x2", "--alpha", "x"},
       "--alpha expects a number in [0, 1] (got \"x\")"},
      {{"check-ids", "--rules", "bogus"},
       "unknown rule set \"bogus\" (accepted: hf-4.57, hf-5.3, hf-main, all, or a transformers "
       "release 4.45.0 ... 5.15.0 or main, e.g. 5.5.4; 5.10.0 was never released)"},
      {{"decay", "--base", "abc"}, "--base expects a number in (1, 1e+12] (got \"abc\")"},
      {{"freqs", "--context", "x"}, "--context expects a number > 0 (got \"x\")"},
      {{"decay", "--direction", "1,x,0"}, "--direction expects a number in -1e6..1e6 (got \"x\")"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "no_circle=maybe"},
       "--param no_circle must be 0 or 1 (false or true) (got \"maybe\")"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "radius_mode=huge"},
       "--param radius_mode must be one of 0 (fixed), 1 (auto) (got \"huge\")"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "radius_mode=7"},
       "radius_mode must be one of 0 (fixed), 1 (auto) (got 7)"},
      {{"ptd", "--layout", "t2,i2x2", "--param", "no_circle=2"},
       "no_circle must be 0 or 1 (false or true) (got 2)"},
      {{"ptd", "--layout", "t2,i2x2", "--frobnicate"},
       "unknown option --frobnicate for ptd (see ropescope ptd --help)"},
      {{"ptd", "stray"},
       "unexpected argument \"stray\" (options start with --; see ropescope ptd --help)"},
      {{"ptd"}, "ptd needs --layout SPEC (e.g. t5,i3x3,t2) or --scene FILE"},
      {{"grid", "--zoom", "2", "x.png"},
       "unknown option --zoom for grid (see ropescope grid --help)"},
      {{"decay", "--base", "1"}, "base must be a finite number in (1, 1e12] (got 1)"},
      {{"ptd", "--scene", "huge.json"},
       "scene file \"huge.json\": number 1e400 is out of range at line 2 (accepted: finite "
       "numbers up to about 1.8e308)"},
      {{"ptd", "--scene", "missing.json"},
       "cannot open scene file \"missing.json\" (No such file or directory)"},
      // 19: attention's --format and --out say what it writes
      {{"attention", "--layout", "t2,i2x2", "--format", "csv"},
       "attention prints its summary as JSON only (--format json; got \"csv\"); the rows go to "
       "--out FILE.npy"},
      {{"attention", "--layout", "t2,i2x2", "--out", "x.csv"},
       "--out must name a .npy file, a device or a FIFO (got \"x.csv\"): attention writes "
       "float32 .npy"},
      // --rules belongs to the model families
      {{"ids", "--layout", "t2,i2x2", "--design", "mrope", "--rules", "hf-5.3"},
       "--rules applies to designs qwen2-vl, qwen2.5-vl, qwen3-vl, qwen3.5, glm4v, ernie4.5-vl, "
       "qwen2.5-omni and qwen3-omni "
       "(the design is mrope)"},
      {{"ids", "--layout", "t2,i2x2", "--design", "qwen3-vl", "--rules", "hf-4.50"},
       "unknown rule set \"hf-4.50\" (accepted: hf-4.57, hf-5.3, hf-main, or a transformers "
       "release 4.45.0 ... 5.15.0 or main, e.g. 5.5.4; 5.10.0 was never released)"},
      {{"ids", "--layout", "t5,i2x2,t2,v2x2x2@1s", "--design", "qwen2.5-vl", "--rules", "hf-5.3"},
       "transformers 5.3.0 raises StopIteration on this layout: video 1 finds no "
       "second_per_grid_ts entry (images before it drew them: #45325, fixed by #45330 in 5.5.4)"},
      // one number parser; --max-distance has one range (core's decay.h) in decay and
      // render; the subcommands' own numbers are parsed in their table's range (own_options.cpp)
      // one parser (CLI11, cli_parser.h) under the tables; its refusals in the
      // table's words: the argument a missing value stands for, own options of one command
      // unknown to another, a value given to a flag
      {{"ptd", "--layout"}, "--layout needs a value (SPEC)"},
      {{"attention", "--layout", "t2,i2x2", "--heads"}, "--heads needs a value (H)"},
      // "--out=" with nothing after '=' names no file: the next word is not taken as one
      {{"ptd", "--layout", "t2,i2x2", "--out=", "x.json"}, "--out needs a value (FILE)"},
      {{"attention", "--layout", "t2,i2x2", "--softmax=no"}, "--softmax takes no value"},
      {{"ptd", "--layout", "t2,i2x2", "--causal"},
       "unknown option --causal for ptd (see ropescope ptd --help)"},
      {{"grid", "--zoom=2", "x.png"}, "unknown option --zoom for grid (see ropescope grid --help)"},
      {{"ptd", "--layout", "t2,i2x2", "-x"},
       "unexpected argument \"-x\" (options start with --; see ropescope ptd --help)"},
      {{"attention", "--layout", "t2,i2x2", "--pool", "2", "--pool", "4"}, "--pool given twice"},
      {{"decay", "--max-distance", "0"},
       "--max-distance expects a whole number in 1..1000000 (got \"0\")"},
      {{"decay", "--max-distance", "1e3"},
       "--max-distance expects a whole number in 1..1000000 (got \"1e3\")"},
      {{"render", "--view", "decay", "--out", "a.png", "--max-distance", "1000001"},
       "--max-distance expects a whole number in 1..1000000 (got \"1000001\")"},
      {{"attention", "--layout", "t2,i2x2", "--heads", "257"},
       "--heads expects a whole number in 1..256 (got \"257\")"},
      {{"attention", "--layout", "t2,i2x2", "--pool", "0"},
       "--pool expects a whole number in 1..1048576 (got \"0\")"},
      {{"attention", "--layout", "t2,i2x2", "--threads", "-1"},
       "--threads expects a whole number in 0..256 (got \"-1\")"},
      {{"attention", "--layout", "t2,i2x2", "--rows", "0:x"},
       "--rows expects a whole number in 0..1099511627776 (got \"x\")"},
      {{"attention", "--layout", "t2,i2x2", "--qk", "random", "--seed", "-1"},
       "--seed expects a whole number in 0..18446744073709551615 (got \"-1\")"},
      {{"render", "--view", "decay", "--out", "a.png", "--scale", "0.25"},
       "--scale expects a number in 0.5..16 (got \"0.25\")"},
      {{"render", "--view", "decay", "--out", "a.png", "--scale", "nan"},
       "--scale expects a number in 0.5..16 (got \"nan\")"},
      {{"render", "--view", "decay", "--out", "a.png", "--size", "16x8193"},
       "--size expects WxH with each side a whole number in 16..8192 (got \"16x8193\")"},
      {{"render", "--view", "phasor", "--out", "a.png", "--distance", "-1"},
       "--distance expects a whole number in 0..4096 (got \"-1\")"},
      {{"render", "--layout", "t2", "--out", "a.gif", "--animate", "distance:0:8", "--frames",
        "1001"},
       "--frames expects a whole number in 2..1000 (got \"1001\")"},
  };
  return table;
}

}  // namespace

TEST(CliMessages, EveryBadInputGivesItsExactLineAndStatusTwo) {
  writeScenes();
  for (const Case& c : cases()) {
    const ProcessResult r = runProcess(workDir(), workDir(), c.args, /*hideDisplay=*/true);
    EXPECT_EQ(r.status, 2) << joinArgs(c.args) << "\nstderr: " << r.err;
    EXPECT_EQ(r.err, "ropescope: " + c.message + "\n") << joinArgs(c.args);
    EXPECT_TRUE(r.out.empty()) << joinArgs(c.args) << "\nstdout: " << r.out;
    // No message repeats the program's name or leaks a library's or the code's words (a
    // parameter's key only where the user typed it).
    const std::string typed = joinArgs(c.args);
    for (const char* leak :
         {"ropescope: ropescope", "[json.exception", "radius_mode", ".000000", "QStandardPaths"})
      if (typed.find(leak) == std::string::npos)
        EXPECT_EQ(r.err.find(leak), std::string::npos) << r.err;
  }
}

// The good counterparts of the table: what the table refuses in one form is accepted in the
// right one.
TEST(CliMessages, TheRightFormsAreAccepted) {
  writeScenes();
  const std::vector<std::vector<std::string>> good = {
      {"ptd", "--layout", "t2,i2x2", "--param", "no_circle=true"},
      {"ptd", "--layout", "t2,i2x2", "--param", "no_circle=false", "--param", "centre=0"},
      {"ptd", "--layout", "t2,i2x2", "--radius", "auto-2"},
      {"ptd", "--scene", "selected-ok.json"},
      {"decay", "--direction", "0,1,0"},
      {"ids", "--layout", "t2,i2x2", "--grid-preset", "qwen3-vl", "--patch", "14"},
      {"ptd", "--layout", "t2,i2x2", "--min-pixels", "3136", "--max-pixels", "1000000"},
      {"bias", "--layout", "t2,i2x2", "--merge", "2"},
      {"attention", "--layout", "t2,i2x2", "--format", "json", "--backend", "cpu"},
      {"ids", "--layout", "t2,qwen3-vl:v2x2x2@1s/ts4", "--design", "qwen3-vl", "--rules",
       "hf-main"},
      {"ids", "--layout", "t5,i2x2", "--design", "qwen2.5-vl", "--rules", "hf-5.3"},
      {"decay", "--max-distance", "1", "--out", "decay-1.json"},
      {"decay", "--max-distance", "1000000", "--format", "csv", "--out", "decay-1e6.csv"},
      {"attention", "--layout", "t2,i2x2", "--backend", "cpu", "--qk", "random", "--seed",
       "18446744073709551615", "--heads", "256", "--rows", "0:1", "--threads", "0"},
  };
  for (const auto& args : good) {
    const ProcessResult r = runProcess(workDir(), workDir(), args, true);
    EXPECT_EQ(r.status, 0) << joinArgs(args) << "\nstderr: " << r.err;
    EXPECT_TRUE(r.err.empty()) << joinArgs(args) << "\nstderr: " << r.err;
  }
}

// Every command's --help lists each option once and says what the command accepts: attention's
// --format is json only and its --out a .npy file.
TEST(CliMessages, HelpListsEveryOptionOnceAndTrue) {
  for (const char* cmd : {"ids", "ptd", "bias", "decay", "freqs", "attention", "grid", "render"}) {
    const ProcessResult h = runProcess(workDir(), workDir(), {cmd, "--help"}, true);
    ASSERT_EQ(h.status, 0) << cmd << ": " << h.err;
    std::istringstream lines(h.out);
    std::vector<std::string> seen;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("  --", 0) != 0) continue;
      const std::string name = line.substr(2, line.find_first_of(" =", 2) - 2);
      EXPECT_EQ(std::count(seen.begin(), seen.end(), name), 0)
          << cmd << " lists " << name << " twice";
      seen.push_back(name);
    }
    EXPECT_NE(std::find(seen.begin(), seen.end(), "--help"), seen.end()) << cmd;
    if (std::string(cmd) != "decay" && std::string(cmd) != "freqs")
      for (const char* grid :
           {"--grid-preset", "--min-pixels", "--max-pixels", "--patch", "--merge"})
        EXPECT_NE(std::find(seen.begin(), seen.end(), grid), seen.end()) << cmd << " " << grid;
  }
  const ProcessResult a = runProcess(workDir(), workDir(), {"attention", "--help"}, true);
  EXPECT_EQ(a.out.find("json|csv"), std::string::npos);
  EXPECT_NE(a.out.find("--out FILE.npy"), std::string::npos);
}

// The help is laid out by the parser from the tables: -h is --help for every
// command, and each option's text wraps beside its name at 96 columns, continuation lines under
// the text column (30).
TEST(CliMessages, HelpIsLaidOutFromTheTable) {
  for (const char* cmd :
       {"ids", "ptd", "bias", "decay", "freqs", "attention", "grid", "render", "check-ids"}) {
    SCOPED_TRACE(cmd);
    const ProcessResult h = runProcess(workDir(), workDir(), {cmd, "--help"}, true);
    ASSERT_EQ(h.status, 0) << h.err;
    const ProcessResult dashH = runProcess(workDir(), workDir(), {cmd, "-h"}, true);
    EXPECT_EQ(dashH.status, 0) << dashH.err;
    EXPECT_EQ(dashH.out, h.out);
    std::istringstream lines(h.out);
    bool inOptions = false;
    int optionLines = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line == "options:" || line == std::string(cmd) + " options:") {
        inOptions = true;
        continue;
      }
      if (line.empty()) inOptions = false;
      if (!inOptions) continue;
      ++optionLines;
      EXPECT_LE(line.size(), 96u) << line;
      const bool named = line.rfind("  --", 0) == 0;
      EXPECT_TRUE(named || line.find_first_not_of(' ') == 30) << line;
      // Beside a name shorter than the column, the text starts at column 30 too.
      if (named && line.size() > 30) {
        EXPECT_EQ(line[29], ' ') << line;
        EXPECT_NE(line[30], ' ') << line;
      }
    }
    EXPECT_GT(optionLines, 3);
  }
}

// Nothing of Qt's reaches the CLI's stderr, even where Qt has to find a runtime folder itself
// (XDG_RUNTIME_DIR unset: "QStandardPaths: XDG_RUNTIME_DIR not set" before the fix).
TEST(CliMessages, QtSaysNothingOnTheCommandLine) {
  const char* saved = std::getenv("XDG_RUNTIME_DIR");
  const std::string keep = saved ? saved : "";
  ::unsetenv("XDG_RUNTIME_DIR");
  const std::vector<std::vector<std::string>> runs = {
      {"render", "--view", "decay", "--out", "quiet.png"},
      {"render", "--animate", "distance_h:0:4", "--frames", "2", "--out", "quiet.gif"},
      {"attention", "--layout", "t2,i2x2", "--backend", "cpu"}};
  for (const auto& args : runs) {
    const ProcessResult r = runProcess(workDir(), workDir(), args, /*hideDisplay=*/true);
    if (r.err.find("desktop build") != std::string::npos) continue;  // no Qt in this build
    EXPECT_EQ(r.status, 0) << joinArgs(args) << r.err;
    EXPECT_EQ(r.err.find("QStandardPaths"), std::string::npos) << joinArgs(args) << r.err;
    EXPECT_EQ(r.err.find("Qt"), std::string::npos) << joinArgs(args) << r.err;
    // render writes its own summary line for animations on stdout; stderr holds nothing.
    EXPECT_TRUE(r.err.empty()) << joinArgs(args) << "\nstderr: " << r.err;
  }
  if (saved) ::setenv("XDG_RUNTIME_DIR", keep.c_str(), 1);
}
