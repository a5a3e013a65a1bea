#include "platform/cli_app.h"

#include <QApplication>
#include <QSurfaceFormat>

#include "space/vtk_view.h"

namespace ropescope::ui {

namespace {

QCoreApplication* makeWidgetApplication(int& argc, char** argv) {
  return new QApplication(argc, argv);
}

}  // namespace

std::string startCommandLineApp(QtSurface surface) {
  if (surface == QtSurface::X11OpenGl && !QCoreApplication::instance())
    QSurfaceFormat::setDefaultFormat(VtkView::surfaceFormat());
  return gpu::startQtApplication(surface, makeWidgetApplication);
}

}  // namespace ropescope::ui
