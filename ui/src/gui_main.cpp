#include "ropescope_ui/gui_main.h"

#include <QApplication>
#include <QSurfaceFormat>

#include <cstdio>

#include "main_window.h"
#include "sample_scene.h"
#include "vtk_view.h"

namespace ropescope::ui {

int runGui(int argc, char** argv, const std::string& sceneFile) {
  // Debian's GLEW is a GLX build: on Wayland desktops go through XWayland (P4).
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    qputenv("QT_QPA_PLATFORM", "xcb");
  }
  QSurfaceFormat::setDefaultFormat(VtkView::surfaceFormat());
  QGuiApplication::setHighDpiScaleFactorRoundingPolicy(
      Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ropescope"));
  QApplication::setApplicationName(QStringLiteral("ropescope"));
  QApplication::setApplicationVersion(QStringLiteral(ROPESCOPE_VERSION));

  // P5: these platforms cannot host a QOpenGLWidget; say so instead of crashing.
  const QString platform = QGuiApplication::platformName();
  if (platform == QLatin1String("offscreen") || platform == QLatin1String("minimal")) {
    std::fprintf(stderr,
                 "ropescope: the desktop app needs an X display (platform \"%s\" cannot show "
                 "OpenGL views); run it under a desktop or xvfb-run, or use the subcommands\n",
                 qPrintable(platform));
    return 1;
  }

  MainWindow window;
  window.restoreSettings();
  window.show();
  if (sceneFile.empty()) {
    window.startWith(sampleScene());  // a real picture on the cone from the first frame
  } else {
    window.openFile(QString::fromStdString(sceneFile));
  }
  window.offerAutosave();  // what a crashed or killed ropescope had not saved
  return QApplication::exec();
}

}  // namespace ropescope::ui
