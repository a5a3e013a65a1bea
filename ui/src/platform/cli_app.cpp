#include "platform/cli_app.h"

#include <QApplication>
#include <QSurfaceFormat>

#include "space/vtk_view.h"

namespace ropescope::ui {

std::string startCommandLineApp(QtSurface surface) {
  if (!QCoreApplication::instance()) {
    const std::string why = gpu::prepareQtPlatform(surface);
    if (!why.empty()) return why;
    if (surface == QtSurface::X11OpenGl) QSurfaceFormat::setDefaultFormat(VtkView::surfaceFormat());
    static int argc = 1;
    static char name[] = "ropescope";
    static char* argv[] = {name, nullptr};
    static QApplication* app = new QApplication(argc, argv);  // lives until exit
    (void)app;
  }
  return gpu::qtPlatformProblem(surface);
}

}  // namespace ropescope::ui
