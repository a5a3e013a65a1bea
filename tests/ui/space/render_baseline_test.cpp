// End-to-end images: the main window on a fixed scene, a parameter changed through the panel,
// the 3-D view grabbed and compared with a committed baseline; the same for compare mode.
// ROPESCOPE_UPDATE_BASELINES=1 rewrites tests/ui/baselines; ROPESCOPE_SCREENSHOT_DIR=DIR also
// saves full-window screenshots there (the README's pictures).
#include <gtest/gtest.h>

#include <QDoubleSpinBox>
#include <QTest>

#include "charts/compare_view.h"
#include "editors/parameter_editor.h"
#include "editors/scene_panel.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"

using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

void setNumber(MainWindow& w, const std::string& key, double value) {
  ParameterEditor* editor = w.panel()->parameterEditor(key);
  ASSERT_NE(editor, nullptr) << key;
  auto* spin = editor->findChild<QDoubleSpinBox*>();
  ASSERT_NE(spin, nullptr) << key;
  spin->setValue(value);
}

}  // namespace

TEST(RenderBaseline, MainViewAfterAParameterChange) {
  MainWindow w;
  w.setDarkPalette(true);
  w.model()->setScene(fixedScene());
  w.spaceView()->setFixedSize(480, 360);  // baselines must not depend on the panel's fonts
  showAndSettle(&w);
  const QImage before = w.spaceView()->grabFramebuffer();
  ASSERT_FALSE(looksBlank(before));

  setNumber(w, "dff", 0.5);  // Dual-Frame Fusion: the ring tilts towards the grid
  // The view shows the model's new ids (grabFramebuffer then draws a frame of them).
  ASSERT_TRUE(waitUntil([&] { return w.spaceView()->ids().ids == w.model()->metrics().ids.ids; }));
  const QImage after = w.spaceView()->grabFramebuffer();
  ASSERT_EQ(after.size(), QSize(480, 360));
  EXPECT_FALSE(looksBlank(after)) << "foreground " << foregroundFraction(after);
  // The change must be visible, or the view did not redraw from the model.
  EXPECT_GT(compareImages(before, after).differingFraction, 0.001);
  EXPECT_GT(w.model()->metrics().ptd.ptd, 1e-6);  // β > 0 gives PTD > 0
  matchesBaseline(after, QStringLiteral("main_view.png"));
  EXPECT_EQ(w.spaceView()->glErrorCount(), 0);
}

TEST(RenderBaseline, CompareMode) {
  MainWindow w;
  w.setDarkPalette(true);
  w.model()->setScene(fixedScene());
  w.compareView()->setFixedSize(640, 480);
  w.setCompareMode(true);
  showAndSettle(&w);
  const QImage image = w.compareView()->grab().toImage();
  ASSERT_EQ(image.size(), QSize(640, 480));
  // Every quadrant shows its own design.
  for (int i = 0; i < 4; ++i) {
    const QImage quadrant = image.copy((i % 2) * 320, (i / 2) * 240, 320, 240);
    EXPECT_FALSE(looksBlank(quadrant)) << "view " << i;
  }
  matchesBaseline(image, QStringLiteral("compare_view.png"));
}
