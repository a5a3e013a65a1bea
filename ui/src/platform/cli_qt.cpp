#include "ropescope_ui/cli_qt.h"

#include <QString>
#include <QtGlobal>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ropescope::ui {

namespace {

void commandLineMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtDebugMsg || type == QtInfoMsg || type == QtWarningMsg) return;
  std::string line = message.toStdString();
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::fprintf(stderr, "ropescope: Qt: %s\n", line.c_str());
}

// A folder only this user can enter, as Qt wants its runtime folder: the same one each run
// (/tmp/ropescope-runtime-UID) when it is ours and private, else a fresh one.
std::string privateRuntimeDir() {
  std::error_code ec;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  const std::string base = (ec ? std::string("/tmp") : tmp.string()) + "/ropescope-runtime-";
  const std::string fixed = base + std::to_string(::getuid());
  ::mkdir(fixed.c_str(), 0700);
  struct stat st {};
  if (::lstat(fixed.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
      (st.st_mode & 0077) == 0)
    return fixed;
  std::string pattern = base + "XXXXXX";
  if (::mkdtemp(pattern.data())) return pattern;
  return {};
}

}  // namespace

void quietQtForCommandLine() {
  qInstallMessageHandler(commandLineMessage);
  if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
    const std::string dir = privateRuntimeDir();
    if (!dir.empty()) ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
  }
}

}  // namespace ropescope::ui
