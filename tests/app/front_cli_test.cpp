// The `ropescope` front: it links the core only, so a core subcommand never
// loads Qt or VTK; the desktop app, render and attention on the GPU are handed to ropescope-gui
// (exec, the same arguments), found by $ROPESCOPE_GUI_BINARY or beside the front, and a missing
// ropescope-gui is one line and exit 2.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace {

using namespace ropescope::cli_harness;

fs::path workDir() {
  static const fs::path d = [] {
    ::unsetenv("QT_QPA_PLATFORM");  // a display for the GPU only where a test gives one
    ::unsetenv("ROPESCOPE_GPU_FAULT");
    return makeWorkDir("ropescope-front-cli");
  }();
  return d;
}

ProcessResult run(const std::vector<std::string>& args, bool hideDisplay = true) {
  return runProcess(workDir(), workDir(), args, hideDisplay);
}

// Sets an environment variable for the children started while it lives.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

std::string commandOutput(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

bool mentionsQtOrVtk(const std::string& text) {
  return text.find("libQt6") != std::string::npos || text.find("libQt5") != std::string::npos ||
         text.find("libvtk") != std::string::npos;
}

// A stand-in for ropescope-gui that prints each argument it was started with on its own line.
fs::path argumentEcho() {
  const fs::path p = workDir() / "echo-gui";
  std::ofstream(p) << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n";
  ::chmod(p.c_str(), 0755);
  return p;
}

TEST(FrontCli, ItsDependencyClosureHasNoQtAndNoVtk) {
  const std::string ldd = commandOutput(std::string("ldd ") + ROPESCOPE_BIN + " 2>&1");
  ASSERT_NE(ldd.find("libc.so"), std::string::npos) << ldd;  // ldd read the binary
  EXPECT_FALSE(mentionsQtOrVtk(ldd)) << ldd;
#ifdef ROPESCOPE_GUI_BIN
  // The same check finds them in the desktop binary.
  EXPECT_TRUE(mentionsQtOrVtk(commandOutput(std::string("ldd ") + ROPESCOPE_GUI_BIN)));
#endif
}

TEST(FrontCli, PtdMapsNoQtOrVtkLibrary) {
  ProcessResult r;
  {
    const ScopedEnv debug("LD_DEBUG", "libs");  // the loader names every library it initialises
    r = run({"ptd", "--layout", "t4,i2x2"});
  }
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"ptd\""), std::string::npos) << r.out;
  ASSERT_NE(r.err.find("calling init:"), std::string::npos) << r.err;
  ASSERT_NE(r.err.find("libc.so"), std::string::npos) << r.err;
  EXPECT_FALSE(mentionsQtOrVtk(r.err)) << r.err;
  // libsndfile and its codecs are opened only for a layout with sound (next test).
  EXPECT_EQ(r.err.find("libsndfile"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("libFLAC"), std::string::npos) << r.err;
}

TEST(FrontCli, ALayoutWithSoundOpensLibsndfileOnDemand) {
  ProcessResult r;
  {
    const ScopedEnv debug("LD_DEBUG", "libs");
    r = run({"ids", "--layout", "t1,aud:chirp.wav", "--format", "csv"});
  }
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(",audio"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("libsndfile.so.1"), std::string::npos) << r.err;
  // Not linked: the loader does not find it among the front's own dependencies.
  EXPECT_EQ(commandOutput(std::string("ldd ") + ROPESCOPE_BIN + " 2>&1").find("libsndfile"),
            std::string::npos);
}

TEST(FrontCli, TheDesktopRenderAndGpuAttentionRunInTheGuiBinaryWithTheSameArguments) {
  const ScopedEnv gui("ROPESCOPE_GUI_BINARY", argumentEcho().string());
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"scene one.json"},
      {"render", "--view", "decay", "--out", "a b.png"},
      {"attention", "--layout", "t4", "--backend", "gpu"},
      {"attention", "--layout", "t4", "--backend=gpu", "--rows", "0:2"},
  };
  for (const auto& args : cases) {
    const ProcessResult r = run(args);
    std::string expected;
    for (const std::string& a : args) expected += a + "\n";
    EXPECT_EQ(r.status, 0) << joinArgs(args) << r.err;
    EXPECT_EQ(r.out, expected) << joinArgs(args);
  }
  // Core subcommands, --help and attention on the CPU stay in the front.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"ptd", "--layout", "t4,i2x2"},
        {"attention", "--layout", "t4", "--backend", "cpu"},
        {"attention", "--layout", "t4"},  // auto without a display: the CPU
        {"attention", "--help"},
        {"--version"}}) {
    const ProcessResult r = run(args);
    EXPECT_EQ(r.status, 0) << joinArgs(args) << r.err;
    EXPECT_EQ(r.out.find("attention\n--layout"), std::string::npos) << joinArgs(args) << r.out;
  }
}

TEST(FrontCli, AutoAttentionWithADisplayGoesToTheGuiBinary) {
  const ScopedEnv gui("ROPESCOPE_GUI_BINARY", argumentEcho().string());
  const ScopedEnv display("QT_QPA_PLATFORM", "offscreen");
  const ProcessResult r = run({"attention", "--layout", "t4"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "attention\n--layout\nt4\n");
}

TEST(FrontCli, AMissingGuiBinaryIsOneLineAndExitTwo) {
  const ScopedEnv gui("ROPESCOPE_GUI_BINARY", "/nonexistent/ropescope-gui");
  expectOneLineError(run({"render", "--view", "decay", "--out", "x.png"}), "render",
                     {"render needs ropescope-gui", "ROPESCOPE_GUI_BINARY=/nonexistent"});
  expectOneLineError(run({"attention", "--layout", "t4", "--backend", "gpu"}), "attention gpu",
                     {"attention --backend gpu needs ropescope-gui"});
  expectOneLineError(run({}), "gui", {"the desktop app needs ropescope-gui"});
  expectOneLineError(run({"scene.json"}), "scene", {"the desktop app needs ropescope-gui"});
  // render's --help is the front's own (a hunt found it refused without ropescope-gui).
  const ProcessResult help = run({"render", "--help"});
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_NE(help.out.find("--view"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("xvfb-run"), std::string::npos) << help.out;
  // auto with a display but no ropescope-gui: the CPU, and the summary says why.
  const ScopedEnv display("QT_QPA_PLATFORM", "offscreen");
  const ProcessResult a = run({"attention", "--layout", "t4"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.out.find("\"backend\": \"cpu\""), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("ropescope-gui (the GPU backend) is not installed"), std::string::npos)
      << a.out;
}

#ifdef ROPESCOPE_GUI_BIN
// Found beside the front without the variable (the build tree), and it really renders.
TEST(FrontCli, RenderReachesTheRealGuiBinary) {
  ASSERT_EQ(std::getenv("ROPESCOPE_GUI_BINARY"), nullptr);
  const ProcessResult r = run({"render", "--list-views"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("decay"), std::string::npos) << r.out;
  const ProcessResult png =
      run({"render", "--view", "decay", "--out", (workDir() / "d.png").string()});
  ASSERT_EQ(png.status, 0) << png.err;
  EXPECT_GT(fs::file_size(workDir() / "d.png"), 1000u);
}
#endif

}  // namespace
