// The Qt application of a command that draws (render, render --animate): made once, on first
// need, and kept until the process exits (Qt allows one per process). How Qt reaches a window
// system, and the application made, is decided in one place (ropescope_gpu/qt_platform.h); this
// asks it for a QApplication, with VTK's surface format for 3-D views.
#pragma once

#include <string>

#include "ropescope_gpu/qt_platform.h"

namespace ropescope::ui {

using gpu::QtSurface;

// Makes the application for `surface` unless one exists (the desktop app, a test's). Returns ""
// or why `surface` cannot be had (for the caller's one line): no display, an X display that did
// not answer, a platform without OpenGL. Sets VTK's surface format before a 3-D application.
std::string startCommandLineApp(QtSurface surface);

}  // namespace ropescope::ui
