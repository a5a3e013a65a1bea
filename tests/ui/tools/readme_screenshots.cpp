// The README's screenshots of the main window (resources/screenshots): a tool, not a test (it
// checks nothing). Run it through scripts/readme-screenshots.sh, which starts an X server.
//   readme_screenshots DIR [--light]
#include <QApplication>
#include <QDockWidget>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

#include "attention/attention_view.h"
#include "attention_settled.h"
#include "charts/compare_view.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "picture/picture_view.h"
#include "platform/file_output.h"
#include "ropescope/layout.h"
#include "shell/main_window.h"
#include "space/vtk_view.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// Through the app's one writer: the screenshot lands whole or not at all.
bool save(QWidget& w, const QString& dir, const char* name) {
  const std::string path = (dir + QLatin1Char('/') + QLatin1String(name)).toStdString();
  try {
    writePng(path, w.grab().toImage());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "readme_screenshots: %s\n", e.what());
    return false;
  }
  std::printf("wrote %s\n", path.c_str());
  return true;
}

bool mainWindowShots(const QString& dir, bool dark) {
  MainWindow w;
  w.setDarkPalette(dark);
  Scene scene = test::fixedScene();
  scene.layout = parseLayoutSpec("t6,i8x8,t10");
  w.model()->setScene(scene);
  w.resize(1600, 1000);
  test::showAndSettle(&w);
  w.model()->setSelectedVisual(20);
  QTest::qWait(100);
  bool ok = save(w, dir, "main_window.png");
  w.setCompareMode(true);
  QTest::qWait(200);
  return save(w, dir, "compare_mode.png") && ok;
}

bool pictureShots(const QString& dir, bool dark) {
  MainWindow w;
  w.setDarkPalette(dark);
  w.startWith(sampleScene());
  w.resize(1600, 1000);
  test::showAndSettle(&w);
  w.model()->setSelectedVisual(40);
  w.applyPreset(CameraPreset::DownTextAxis);  // the ring seen round, the picture around it
  QTest::qWait(100);
  bool ok = save(w, dir, "picture_on_cone.png");
  Scene hard = w.model()->scene();
  hard.design = "hard";
  hard.designParams = {};
  w.model()->setScene(hard);
  w.pictureView()->setOverlay(PictureOverlay::Distance);
  QTest::qWait(50);
  return save(w, dir, "picture_hard.png") && ok;
}

bool attentionShot(const QString& dir, bool dark) {
  MainWindow w;
  w.setDarkPalette(dark);
  w.startWith(sampleScene());
  w.resize(1600, 1150);
  test::showAndSettle(&w);
  w.attentionDock()->show();
  w.resizeDocks({w.attentionDock()}, {600}, Qt::Vertical);
  AttentionView* v = w.attentionView();
  w.model()->setSelectedText(6);  // the first text token after the picture
  if (!attentionSettled(v)) return false;
  QTest::qWait(200);
  return save(w, dir, "attention.png");
}

}  // namespace

int main(int argc, char** argv) {
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
  qputenv("XDG_DATA_HOME", config.path().toLocal8Bit());
  QSurfaceFormat::setDefaultFormat(VtkView::surfaceFormat());
  QApplication app(argc, argv);
  if (argc < 2 || argc > 3 || (argc == 3 && QLatin1String(argv[2]) != QLatin1String("--light"))) {
    std::fprintf(stderr, "usage: readme_screenshots DIR [--light]\n");
    return 2;
  }
  const QString dir = QString::fromLocal8Bit(argv[1]);
  const bool dark = argc == 2;
  const bool ok = mainWindowShots(dir, dark) & pictureShots(dir, dark) & attentionShot(dir, dark);
  return ok ? 0 : 1;
}
