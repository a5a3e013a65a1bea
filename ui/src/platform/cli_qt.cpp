#include "ropescope_ui/cli_qt.h"

#include <QString>
#include <QtGlobal>

#include <cstdio>
#include <string>

#include "ropescope_gpu/qt_platform.h"

namespace ropescope::ui {

namespace {

void commandLineMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtDebugMsg || type == QtInfoMsg || type == QtWarningMsg) return;
  std::string line = message.toStdString();
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::fprintf(stderr, "ropescope: Qt: %s\n", line.c_str());
}

}  // namespace

void quietQtForCommandLine() {
  qInstallMessageHandler(commandLineMessage);
  gpu::ensureQtRuntimeDir();
}

}  // namespace ropescope::ui
