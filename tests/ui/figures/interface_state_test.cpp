// An export leaves the interface as it was: after every view in every format, written through
// the GUI's export, the application's font, palette and style, the menu bar's font and the size
// a menu item is drawn at are those before it. A picture-bias PNG shrank every menu's text until
// restart: its colour-bar labels, measured at the figure's resolution, left Qt a 12-px font
// engine of 6 pt, which the menus' 12-px font then took.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFontInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QTemporaryDir>

#include <string>
#include <vector>

#include "figures/figure_menu.h"
#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// The size a menu item is drawn at: Fusion gives each item the point size QFontInfo finds for
// the menu's font, looked up afresh (a copy with its own size set, as the style makes it).
double drawnPoints(const QFont& font) {
  QFont f = font;
  f.setPointSizeF(font.pointSizeF());
  return QFontInfo(f).pointSizeF();
}

// Empties Qt's font engine cache (adding and removing an application font invalidates the font
// database), as in a session whose menus had not been drawn since Qt let their engines go: the
// export that follows makes its engines first, and the menus then look theirs up.
void emptyFontCache() {
  const int id = QFontDatabase::addApplicationFont(
      QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
  if (id >= 0) QFontDatabase::removeApplicationFont(id);
}

struct Look {
  QFont appFont, menuFont;
  QPalette palette;
  QStyle* style = nullptr;
  QString styleName;
  std::vector<QFont> popupFonts;  // each menu of the menu bar
};

Look lookOf(MainWindow& w) {
  Look l{QApplication::font(),  w.menuBar()->font(),           QApplication::palette(),
         QApplication::style(), QApplication::style()->name(), {}};
  for (QMenu* m : w.menuBar()->findChildren<QMenu*>()) l.popupFonts.push_back(m->font());
  return l;
}

}  // namespace

TEST(FigureInterface, EveryViewAndFormatLeavesTheInterfaceAsItWas) {
  // A scene every view can draw: a picture and audio besides text.
  Scene scene = findFigurePreset("circle-picture").scene;
  scene.layout.segments.push_back(Segment::audio(12));
  MainWindow w;
  w.model()->setScene(scene);
  ASSERT_TRUE(test::waitUntil([&] { return w.model()->validScene() == scene; }));
  const Look before = lookOf(w);
  ASSERT_GT(before.menuFont.pointSizeF(), 0) << "the menus' font is sized in points";

  QTemporaryDir dir;
  int exports = 0;
  for (const FigureView& v : figureViews())
    for (const std::string& format : v.formats) {
      const std::string what = v.name + "." + format;
      const QString path = dir.filePath(QString::fromStdString(what));
      emptyFontCache();
      w.figures()->exportTo(v.name, path);
      ASSERT_TRUE(QFileInfo::exists(path)) << what;
      ++exports;
      const Look after = lookOf(w);
      EXPECT_EQ(after.appFont, before.appFont) << what;
      EXPECT_EQ(after.menuFont, before.menuFont) << what;
      EXPECT_EQ(after.palette, before.palette) << what;
      EXPECT_EQ(after.style, before.style) << what;
      EXPECT_EQ(after.styleName, before.styleName) << what;
      EXPECT_EQ(after.popupFonts, before.popupFonts) << what;
      // What the eye sees: the menus drawn at their own point size, not one left by a figure.
      EXPECT_NEAR(drawnPoints(w.menuBar()->font()), before.menuFont.pointSizeF(), 0.05) << what;
      EXPECT_NEAR(drawnPoints(QApplication::font()), before.appFont.pointSizeF(), 0.05) << what;
      EXPECT_EQ(QFontInfo(w.menuBar()->font()).pixelSize(), QFontInfo(before.menuFont).pixelSize())
          << what;
    }
  EXPECT_GT(exports, 50);  // every view in every format it takes
}
