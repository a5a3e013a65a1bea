// main() of the GUI tests: the GL surface format before QApplication (as the app does), and
// settings kept away from the user's own.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include "space/vtk_view.h"

int main(int argc, char** argv) {
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
  qputenv("XDG_DATA_HOME", config.path().toLocal8Bit());  // autosaves too
  QSurfaceFormat::setDefaultFormat(ropescope::ui::VtkView::surfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ropescope-tests"));
  QApplication::setApplicationName(QStringLiteral("ropescope-tests"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
