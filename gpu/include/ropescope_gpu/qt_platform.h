// The one place ropescope decides how Qt reaches a window system: the desktop app, `render`
// (figures and 3-D views), `render --animate` and the GPU attention backend all start Qt through
// it. Qt Gui only (no widgets): ui/src/platform/cli_app.h asks for a widget application.
#pragma once

#include <string>

class QCoreApplication;

namespace ropescope::gpu {

// What a process draws with.
enum class QtSurface {
  Images,     // QPainter on QImage only (charts, phasor frames): "offscreen", no display at all
  X11OpenGl,  // VTK's 3-D views: Debian's VTK and GLEW are GLX builds, so X11 (or XWayland)
  OpenGl,     // an OpenGL context on any window system (GPU compute): X11 or Wayland
};

// Gives Qt a private runtime folder (/tmp/ropescope-runtime-UID, made 0700, or a fresh one) when
// XDG_RUNTIME_DIR is unset, so that Qt does not warn about picking one itself.
void ensureQtRuntimeDir();

// Called before the process's one Qt application is made: the runtime folder above, and
// QT_QPA_PLATFORM for `surface` unless the user set it. Where a display is needed it is a list
// ending in "offscreen" ("xcb;offscreen"): Qt aborts the process when its only platform plugin
// cannot connect, and with the list it falls back instead, which qtPlatformProblem() then names.
// Returns "" or why this process cannot have `surface` (a clause for the caller's one line,
// e.g. "neither DISPLAY nor WAYLAND_DISPLAY is set").
std::string prepareQtPlatform(QtSurface surface);

// Once a QGuiApplication exists: "" or why the platform Qt runs on cannot give `surface` (the X
// display did not answer and Qt fell back to offscreen, or the user's platform is offscreen).
std::string qtPlatformProblem(QtSurface surface);

// Makes the application of a process that has none (the command line, the Python module):
// prepareQtPlatform(surface), then the application by `make` (a QGuiApplication when null; the
// ui passes one that makes a QApplication), kept until the process exits (Qt allows one). With
// an application already there, nothing is made. Returns "" or why `surface` cannot be had
// (prepareQtPlatform's reasons, or qtPlatformProblem's).
using QtApplicationMaker = QCoreApplication* (*)(int& argc, char** argv);
std::string startQtApplication(QtSurface surface, QtApplicationMaker make = nullptr);

}  // namespace ropescope::gpu
