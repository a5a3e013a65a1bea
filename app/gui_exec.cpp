#include "gui_exec.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "ropescope/errors.h"

namespace ropescope::cli {

namespace {

namespace fs = std::filesystem;

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::string findGuiBinary(std::string* lookedFor) {
  if (const char* env = std::getenv("ROPESCOPE_GUI_BINARY"); env && *env) {
    if (lookedFor) *lookedFor = std::string("ROPESCOPE_GUI_BINARY=") + env;
    return executable(env) ? std::string(env) : std::string();
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    if (lookedFor) *lookedFor = "nowhere (/proc/self/exe cannot be read)";
    return {};
  }
  const fs::path dir = self.parent_path();
  const fs::path beside = dir / "ropescope-gui";
  const fs::path installed =
      (dir / ".." / "libexec" / "ropescope" / "ropescope-gui").lexically_normal();
  if (lookedFor) *lookedFor = beside.string() + " and " + installed.string();
  if (executable(beside)) return beside.string();
  if (executable(installed)) return installed.string();
  return {};
}

void execGui(const std::vector<std::string>& args, const std::string& what) {
  std::string lookedFor;
  const std::string bin = findGuiBinary(&lookedFor);
  if (bin.empty())
    throw InputError(what + " needs ropescope-gui (the desktop part of ropescope), not found: " +
                     "looked for " + lookedFor);
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  std::string argv0 = bin;
  argv.push_back(argv0.data());
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::fflush(nullptr);
  ::execv(bin.c_str(), argv.data());
  throw InputError(what + " needs ropescope-gui, which cannot start (" + bin +
                   "): " + std::strerror(errno));
}

}  // namespace ropescope::cli
