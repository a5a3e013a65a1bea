// Helper of the autosave test: a real MainWindow that opens ORIGINAL.json, changes its scene
// to the one in CHANGED.json (unsaved), and prints "autosaved" once its autosave is on disk;
// then it runs until it is killed. Usage: autosave_child ORIGINAL.json CHANGED.json
#include <QApplication>
#include <QFile>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>

#include "model/scene_model.h"
#include "ropescope/scene.h"
#include "shell/autosave.h"
#include "shell/main_window.h"
#include "space/vtk_view.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: autosave_child ORIGINAL.json CHANGED.json\n");
    return 2;
  }
  QSurfaceFormat::setDefaultFormat(ropescope::ui::VtkView::surfaceFormat());
  QApplication app(argc, argv);
  // The same names as the GUI tests: the same AppDataLocation under XDG_DATA_HOME.
  QApplication::setOrganizationName(QStringLiteral("ropescope-tests"));
  QApplication::setApplicationName(QStringLiteral("ropescope-tests"));
  ropescope::ui::MainWindow w;
  w.show();
  if (!w.openFile(QString::fromLocal8Bit(argv[1]))) return 1;
  w.model()->setScene(ropescope::loadSceneFile(argv[2]));
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    if (QFile::exists(w.autosave()->scenePath())) {
      std::printf("autosaved %s\n", qPrintable(w.autosave()->scenePath()));
      std::fflush(stdout);
      poll.stop();
    }
  });
  poll.start(20);
  return QApplication::exec();
}
