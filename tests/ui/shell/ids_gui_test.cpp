// File → Load ids… and the research designs in the design box: loaded ids are drawn and
// measured, a saved scene reopens with them, a bad file leaves the scene as it was with the
// message shown, and picking IL-RoPE brings its interleaved plan.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>
#include <cmath>
#include <fstream>

#include "editors/scene_panel.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "screen_util.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// [N,3] float64 ids: token i at (i, 2i, -i) -- nothing a built-in design gives.
std::string writeIds(const QString& path, std::size_t n) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.insert(v.end(), {double(i), 2.0 * i, -double(i)});
  std::string h = npyHeader({n, 3}, "<f8");
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::ofstream f(path.toStdString(), std::ios::binary);
  f << "\x93NUMPY" << '\x01' << '\0' << static_cast<char>(h.size() & 0xff)
    << static_cast<char>(h.size() >> 8) << h;
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 8));
  return path.toStdString();
}

struct Window {
  MainWindow w;
  Window() {
    w.model()->setScene(fixedScene());
    w.resize(1400, 900);
    showAndSettle(&w);
  }
};

}  // namespace

TEST(IdsGui, LoadedIdsAreDrawnSavedAndReopened) {
  Window win;
  QTemporaryDir dir;
  const std::size_t n = win.w.model()->scene().layout.tokenCount();
  writeIds(dir.filePath(QStringLiteral("own.npy")), n);
  ASSERT_TRUE(win.w.loadIds(dir.filePath(QStringLiteral("own.npy"))));
  waitUntil([&] { return !win.w.model()->computing(); });
  EXPECT_EQ(win.w.model()->scene().design, "ids-file");
  const auto& shown = win.w.spaceView()->ids();
  ASSERT_EQ(shown.size(), n);
  EXPECT_EQ(shown.ids[5], (Id3{5, 10, -5}));
  auto* box = win.w.panel()->findChild<QComboBox*>(QStringLiteral("design"));
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->currentData().toString(), QStringLiteral("ids-file"));
  EXPECT_TRUE(std::isfinite(win.w.model()->metrics().ptd.ptd));

  const QString scene = dir.filePath(QStringLiteral("scene.json"));
  ASSERT_TRUE(win.w.saveTo(scene));
  win.w.model()->setScene(fixedScene());
  ASSERT_TRUE(win.w.openFile(scene));
  EXPECT_EQ(win.w.model()->scene().design, "ids-file");
  EXPECT_EQ(win.w.model()->scene().fileIds.size(), n);
  waitUntil([&] { return !win.w.model()->computing(); });
  EXPECT_EQ(win.w.spaceView()->ids().ids[5], (Id3{5, 10, -5}));
}

TEST(IdsGui, ABadFileLeavesTheSceneAsItWas) {
  Window win;
  QTemporaryDir dir;
  const Scene before = win.w.model()->scene();
  writeIds(dir.filePath(QStringLiteral("short.npy")), before.layout.tokenCount() - 1);
  QString message;
  QTimer::singleShot(0, [&] {
    waitUntil([] { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); });
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    message = box->text();
    dismissModal(box);
  });
  EXPECT_FALSE(win.w.loadIds(dir.filePath(QStringLiteral("short.npy"))));
  EXPECT_EQ(win.w.model()->scene(), before);
  EXPECT_TRUE(message.contains(QStringLiteral("tokens but the layout has")))
      << message.toStdString();
}

TEST(IdsGui, PickingIlRopeBringsItsPlan) {
  Window win;
  auto* box = win.w.panel()->findChild<QComboBox*>(QStringLiteral("design"));
  ASSERT_NE(box, nullptr);
  for (const char* name : {"mca", "mm-rope", "omnirope", "ilrope", "vrope"})
    EXPECT_GE(box->findData(QString::fromLatin1(name)), 0) << name;
  box->setCurrentIndex(box->findData(QStringLiteral("ilrope")));
  EXPECT_EQ(win.w.model()->scene().design, "ilrope");
  EXPECT_EQ(win.w.model()->scene().frequency.plan, "interleaved");
  box->setCurrentIndex(box->findData(QStringLiteral("mm-rope")));
  EXPECT_EQ(win.w.model()->scene().frequency.plan, "mm-rope");
  // MCA has no plan of its own: it starts from the default rotary, not MM-RoPE's (the numbers
  // of a design depended on the design picked before it).
  box->setCurrentIndex(box->findData(QStringLiteral("mca")));
  EXPECT_EQ(win.w.model()->scene().frequency, defaultScene().frequency);
  box->setCurrentIndex(box->findData(QStringLiteral("vrope")));
  EXPECT_EQ(win.w.model()->scene().frequency.plan, "vrope");
}
