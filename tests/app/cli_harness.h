// Runs the ropescope binary as a real process for the CLI end-to-end tests: captures stdout,
// stderr, exit status and peak memory, and checks the one-line error contract.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ropescope::cli_harness {

namespace fs = std::filesystem;

struct ProcessResult {
  int status = -1;
  std::string out, err;
  long maxRssKiB = 0;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder for this test process (prefix names the suite).
inline fs::path makeWorkDir(const std::string& prefix) {
  fs::path d = fs::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// In a forked child: replaces it by ROPESCOPE_BIN with `args` (no shell); with hideDisplay
// DISPLAY and WAYLAND_DISPLAY are unset first, so GPU probes fail the same on every machine.
[[noreturn]] inline void execRopescope(const std::vector<std::string>& args, bool hideDisplay) {
  if (hideDisplay) {
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
  }
  std::string bin = ROPESCOPE_BIN;
  std::vector<std::string> copy = args;
  std::vector<char*> argv{bin.data()};
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(bin.c_str(), argv.data());
  _exit(127);
}

// fork + exec (no shell) of ROPESCOPE_BIN in `cwd`; stdout/stderr go through files in `work`.
// hideDisplay unsets DISPLAY and WAYLAND_DISPLAY so GPU probes fail the same on every machine.
inline ProcessResult runProcess(const fs::path& work, const fs::path& cwd,
                                const std::vector<std::string>& args, bool hideDisplay = false) {
  const fs::path outFile = work / "stdout.txt", errFile = work / "stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) _exit(127);
    if (!std::freopen(outFile.c_str(), "wb", stdout) ||
        !std::freopen(errFile.c_str(), "wb", stderr) || !std::freopen("/dev/null", "rb", stdin))
      _exit(127);
    execRopescope(args, hideDisplay);
  }
  ProcessResult r;
  int st = 0;
  rusage usage{};
  wait4(pid, &st, 0, &usage);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.maxRssKiB = usage.ru_maxrss;
  r.out = slurp(outFile);
  r.err = slurp(errFile);
  return r;
}

// Status 2, nothing on stdout, exactly one line on stderr that contains every `mention`.
inline void expectOneLineError(const ProcessResult& r, const std::string& context,
                               const std::vector<std::string>& mentions) {
  EXPECT_EQ(r.status, 2) << context << "\nstderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << context << "\nstdout: " << r.out;
  ASSERT_FALSE(r.err.empty()) << context;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << context << "\nnot one line: " << r.err;
  for (const std::string& m : mentions)
    EXPECT_NE(r.err.find(m), std::string::npos)
        << context << "\nmissing \"" << m << "\" in: " << r.err;
}

inline std::string joinArgs(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += a + " ";
  return s;
}

}  // namespace ropescope::cli_harness
