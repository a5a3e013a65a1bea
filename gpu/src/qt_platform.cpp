#include "ropescope_gpu/qt_platform.h"

#include <QByteArray>
#include <QGuiApplication>
#include <QString>
#include <QtGlobal>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "ropescope/gpu_probe.h"

namespace ropescope::gpu {

namespace {

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

bool withoutOpenGl(const QString& platform) {
  return platform == QLatin1String("offscreen") || platform == QLatin1String("minimal");
}

}  // namespace

void ensureQtRuntimeDir() {
  if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
  const std::string dir = privateRuntimeDir();
  if (!dir.empty()) ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
}

std::string prepareQtPlatform(QtSurface surface) {
  ensureQtRuntimeDir();
  const bool chosen = !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
  switch (surface) {
    case QtSurface::Images:
      if (!chosen) qputenv("QT_QPA_PLATFORM", "offscreen");
      return {};
    case QtSurface::X11OpenGl:
      if (chosen) {
        const QString platform = qEnvironmentVariable("QT_QPA_PLATFORM");
        return withoutOpenGl(platform)
                   ? "the Qt platform \"" + platform.toStdString() + "\" cannot show OpenGL views"
                   : std::string();
      }
      if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return "neither DISPLAY nor WAYLAND_DISPLAY is set";
      // X11, also on Wayland desktops through XWayland.
      qputenv("QT_QPA_PLATFORM", "xcb;offscreen");
      return {};
    case QtSurface::OpenGl: {
      std::string why;
      if (!gpuDisplayAvailable(&why)) return why;
      // Without DISPLAY, Wayland; an OpenGL context on offscreen then fails cleanly.
      if (!chosen)
        qputenv("QT_QPA_PLATFORM",
                qEnvironmentVariableIsEmpty("DISPLAY") ? "wayland;offscreen" : "xcb;offscreen");
      return {};
    }
  }
  return {};
}

std::string qtPlatformProblem(QtSurface surface) {
  if (surface != QtSurface::X11OpenGl ||
      !qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
    return {};
  const QString platform = QGuiApplication::platformName();
  if (!withoutOpenGl(platform)) return {};
  // "xcb;offscreen" (prepareQtPlatform) fell back: the X server did not answer.
  const bool fellBack = qgetenv("QT_QPA_PLATFORM").contains(';');
  const QByteArray display = qgetenv("DISPLAY");
  if (!fellBack)
    return "the Qt platform \"" + platform.toStdString() + "\" cannot show OpenGL views";
  if (display.isEmpty()) return "DISPLAY is not set, and OpenGL views need X11 or XWayland";
  return "cannot open the X display " + display.toStdString();
}

std::string startQtApplication(QtSurface surface, QtApplicationMaker make) {
  if (!QCoreApplication::instance()) {
    const std::string why = prepareQtPlatform(surface);
    if (!why.empty()) return why;
    static int argc = 1;
    static char name[] = "ropescope";
    static char* argv[] = {name, nullptr};
    // Lives until exit: Qt allows one application per process, and it is never destroyed.
    static QCoreApplication* app = make ? make(argc, argv) : new QGuiApplication(argc, argv);
    (void)app;
  }
  return qtPlatformProblem(surface);
}

}  // namespace ropescope::gpu
