#include "ropescope_ui/gui_main.h"

#include <QApplication>
#include <QList>
#include <QSurfaceFormat>

#include <cstdio>
#include <string>

#include "model/sample_scene.h"
#include "ropescope_gpu/qt_platform.h"
#include "shell/main_window.h"
#include "space/vtk_view.h"

namespace ropescope::ui {

namespace {

// One line instead of Qt's abort when there is no display to open (exit status 2).
int needsDisplay(const char* why) {
  std::fprintf(stderr,
               "ropescope: the desktop app needs a display (%s); run it headless as "
               "\"xvfb-run -a ropescope\", or use a command such as \"ropescope ptd\", which "
               "needs none (ropescope --help)\n",
               why);
  return 2;
}

// What Qt says while it looks for a display: held back until it is known whether the app can
// start. Refused, the one line above says it instead; started, they are passed on.
struct HeldMessage {
  QtMsgType type;
  QByteArray category;
  QString text;
};
QtMessageHandler previousHandler = nullptr;
QList<HeldMessage>* heldMessages = nullptr;
void holdMessage(QtMsgType type, const QMessageLogContext& context, const QString& text) {
  if (type != QtFatalMsg && heldMessages) {
    heldMessages->append({type, QByteArray(context.category ? context.category : ""), text});
    return;
  }
  if (previousHandler) previousHandler(type, context, text);
}
void passOnHeldMessages(QList<HeldMessage>& held) {
  for (const HeldMessage& m : held) {
    const QMessageLogContext context(nullptr, 0, nullptr, m.category.constData());
    if (previousHandler)
      previousHandler(m.type, context, m.text);
    else
      std::fprintf(stderr, "%s\n", qPrintable(m.text));
  }
  held.clear();
}

}  // namespace

int runGui(int argc, char** argv, const std::string& sceneFile) {
  // Debian's GLEW is a GLX build: X11, also on Wayland desktops through XWayland (P4). If the
  // X server cannot be reached, Qt falls back to "offscreen", which is refused below with one
  // line (Qt alone would abort).
  const std::string cannot = gpu::prepareQtPlatform(gpu::QtSurface::X11OpenGl);
  if (!cannot.empty()) return needsDisplay(cannot.c_str());
  QSurfaceFormat::setDefaultFormat(VtkView::surfaceFormat());
  QGuiApplication::setHighDpiScaleFactorRoundingPolicy(
      Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
  QList<HeldMessage> held;
  heldMessages = &held;
  previousHandler = qInstallMessageHandler(holdMessage);
  QApplication app(argc, argv);
  qInstallMessageHandler(previousHandler);
  heldMessages = nullptr;
  QApplication::setOrganizationName(QStringLiteral("ropescope"));
  QApplication::setApplicationName(QStringLiteral("ropescope"));
  QApplication::setApplicationVersion(QStringLiteral(ROPESCOPE_VERSION));

  // P5: these platforms cannot host a QOpenGLWidget; say so instead of crashing.
  const std::string why = gpu::qtPlatformProblem(gpu::QtSurface::X11OpenGl);
  if (!why.empty()) return needsDisplay(why.c_str());
  passOnHeldMessages(held);

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
