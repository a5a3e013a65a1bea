// "Done means": every interactive element of every tab and view hovered and clicked
// with real mouse events, under a window manager (openbox) at 1366x768 and 1920x1080: buttons,
// tab bars, sliders, combo boxes, every chart's bars, points, legend markers and axes, the
// picture's patches, the attention heat map and token map, the phasor canvas, the 3-D view's
// tokens, every view of the compare grid, the tour's buttons, and every menu action (dialogs
// answered as a user backing out would). After each: the app answers and the window lies
// inside the screen. Screenshots of both sizes go to the build folder's tests/ui/screenshots.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSlider>
#include <QTabBar>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <set>

#include "attention/attention_view.h"
#include "chart_items.h"
#include "charts/charts_panel.h"
#include "charts/compare_view.h"
#include "gui_test_util.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "picture/picture_canvas.h"
#include "picture/picture_view.h"
#include "screen_util.h"
#include "shell/main_window.h"
#include "teaching/phasor_view.h"
#include "teaching/tour.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// Backs out of whatever a click opens: a modal dialog (Escape / Cancel / reject) or a popup
// (a combo box's list, a menu).
class BackOut : public QObject {
 public:
  BackOut() {
    timer_.setInterval(20);
    connect(&timer_, &QTimer::timeout, this, [this] {
      if (QWidget* popup = QApplication::activePopupWidget()) {
        popup->close();
        ++closed;
        return;
      }
      QWidget* m = QApplication::activeModalWidget();
      if (!m) return;
      ++closed;
      dismissModal(m);
    });
    timer_.start();
  }
  int closed = 0;

 private:
  QTimer timer_;
};

class Clicker {
 public:
  explicit Clicker(MainWindow& w) : w_(w) {}

  // Hover and click `target` at `pos` (its own coordinates), then check the app.
  void click(QWidget* target, QPoint pos, const std::string& what) {
    if (!target->isVisible()) return;
    hoverAndClick(target, pos);
    ++clicks;
    expectAliveAndOnScreen(what);
  }
  void clickCentre(QWidget* target, const std::string& what) {
    click(target, target->rect().center(), what);
  }

  void expectAliveAndOnScreen(const std::string& what) {
    bool fired = false;
    QTimer::singleShot(0, [&fired] { fired = true; });
    ASSERT_TRUE(waitUntil([&] { return fired; })) << "no answer after " << what;
    // Back out of what the click opened before looking at the window.
    ASSERT_TRUE(waitUntil([] {
      return !QApplication::activeModalWidget() && !QApplication::activePopupWidget();
    })) << what;
    ASSERT_TRUE(w_.isVisible()) << "the window went away after " << what;
    const QRect avail = w_.screen()->availableGeometry();
    EXPECT_TRUE(avail.contains(w_.frameGeometry()))
        << "after " << what << ": frame " << rectText(w_.frameGeometry()) << ", screen "
        << rectText(avail);
    for (QDockWidget* dock : w_.findChildren<QDockWidget*>()) {
      if (!dock->isFloating() || !dock->isVisible()) continue;
      EXPECT_TRUE(avail.contains(dock->frameGeometry()))
          << "after " << what << ": floating " << dock->objectName().toStdString() << " at "
          << rectText(dock->frameGeometry());
    }
  }

  // Every visible, enabled button, tab, slider and combo box inside `root`, once each.
  void clickWidgets(QWidget* root, const std::string& where) {
    std::vector<QPointer<QWidget>> targets;
    for (QWidget* c : root->findChildren<QWidget*>())
      if (qobject_cast<QAbstractButton*>(c) || qobject_cast<QTabBar*>(c) ||
          qobject_cast<QSlider*>(c) || qobject_cast<QComboBox*>(c))
        targets.push_back(c);
    for (const QPointer<QWidget>& t : targets) {
      if (::testing::Test::HasFatalFailure()) return;
      if (!t || !t->isVisible() || !t->isEnabled() || !t->window()->isVisible()) continue;
      const std::string what = where + " " + t->metaObject()->className() + " \"" +
                               (qobject_cast<QAbstractButton*>(t.data())
                                    ? qobject_cast<QAbstractButton*>(t.data())->text()
                                    : t->objectName())
                                   .toStdString() +
                               "\"";
      if (auto* bar = qobject_cast<QTabBar*>(t.data())) {
        for (int i = 0; i < bar->count() && bar; ++i)
          click(bar, bar->tabRect(i).center(), what + " tab " + std::to_string(i));
        continue;
      }
      if (auto* slider = qobject_cast<QSlider*>(t.data())) {
        click(slider, QPoint(slider->width() / 4, slider->height() / 2), what);
        continue;
      }
      clickCentre(t, what);
      // A button may float its dock (the dock's title bar): back in place for the next ones.
      for (QDockWidget* dock : w_.findChildren<QDockWidget*>())
        if (dock->isFloating()) dock->setFloating(false);
    }
  }

  // Every chart of the Charts tab: bars, points, legend markers, axes.
  void clickCharts() {
    for (QChartView* view : w_.charts()->findChildren<QChartView*>()) {
      // The tab scrolls: bring the chart into view first.
      view->parentWidget()->setFocus();
      if (auto* area = findScrollArea(view)) area->ensureWidgetVisible(view);
      QCoreApplication::processEvents();
      const std::string chart = "chart \"" + view->chart()->title().toStdString() + "\"";
      std::vector<ChartSpot> spots = barSpots(view);
      for (const ChartSpot& s : pointSpots(view)) spots.push_back(s);
      for (const ChartSpot& s : legendAndAxisSpots(view)) spots.push_back(s);
      EXPECT_GE(spots.size(), 5u) << chart;
      for (const ChartSpot& s : spots) {
        if (::testing::Test::HasFatalFailure()) return;
        click(view->viewport(), s.pos, chart + " " + s.what);
      }
    }
  }

  MainWindow& w_;
  int clicks = 0;

 private:
  static QScrollArea* findScrollArea(QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
      if (auto* a = qobject_cast<QScrollArea*>(p)) return a;
    return nullptr;
  }
};

void saveScreen(const QString& name) {
  QCoreApplication::processEvents();
  const QString dir = QStringLiteral(ROPESCOPE_UI_SCREENSHOTS);
  QDir().mkpath(dir);
  const QString path = dir + QLatin1Char('/') + QString::fromUtf8(qgetenv("ROPESCOPE_SCREEN")) +
                       QLatin1Char('-') + name + QStringLiteral(".png");
  EXPECT_TRUE(QGuiApplication::primaryScreen()->grabWindow(0).save(path)) << path.toStdString();
}

TEST(ClickEverything, EveryElementOfEveryTabAndViewHoveredAndClicked) {
  expectManagedScreen();
  BackOut backOut;
  MainWindow w;
  w.restoreSettings();
  w.show();
  w.startWith(sampleScene());
  ASSERT_TRUE(waitForFrame(&w));
  Clicker c(w);
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);

  // The charts first, on the start scene (a bar click switches the design).
  w.showSideTab(QStringLiteral("charts"));
  c.clickCharts();
  saveScreen(QStringLiteral("charts-clicked"));

  // The picture's patches.
  w.startWith(sampleScene());
  w.showSideTab(QStringLiteral("picture"));
  QCoreApplication::processEvents();
  PictureView* picture = w.pictureView();
  ASSERT_GT(picture->rows(), 0);
  for (int r = 0; r < picture->rows(); r += 2)
    for (int col = 0; col < picture->cols(); col += 3)
      c.click(picture->canvas(), picture->cellRect(r, col).center().toPoint(),
              "picture patch " + std::to_string(r) + "," + std::to_string(col));

  // The phasor canvas, on a grid of points.
  w.showSideTab(QStringLiteral("phasor"));
  QCoreApplication::processEvents();
  QWidget* phasor = w.phasorView()->canvas();
  for (int y = 1; y < 5; ++y)
    for (int x = 1; x < 5; ++x)
      c.click(phasor, QPoint(phasor->width() * x / 5, phasor->height() * y / 5), "phasor canvas");

  // The 3-D view's tokens.
  for (long t = 0; t < long(w.spaceView()->ids().size()); t += 7) {
    const QPointF p = w.spaceView()->tokenPosition(t);
    if (p.x() >= 0) c.click(w.spaceView(), p.toPoint(), "3-D token " + std::to_string(t));
  }

  // Every button, tab, slider and combo box of the window, on each side tab.
  for (int i = 0; i < tabs->count(); ++i) {
    w.startWith(sampleScene());
    tabs->setCurrentIndex(i);
    c.clickWidgets(&w, "tab " + tabs->tabText(i).toStdString() + ":");
    if (::testing::Test::HasFatalFailure()) return;
  }

  // The attention dock: its controls, the heat map and the text token's map.
  w.startWith(sampleScene());
  w.attentionDock()->show();
  AttentionView* attention = w.attentionView();
  ASSERT_TRUE(waitUntil([&] { return attention->shownResult() && !attention->busy(); }));
  saveScreen(QStringLiteral("attention-clicked"));
  const QRectF heat = attention->heatmapRect();
  for (int y = 1; y < 4; ++y)
    for (int x = 1; x < 4; ++x)
      c.click(
          attention->heatmapCanvas(),
          QPointF(heat.left() + heat.width() * x / 4, heat.top() + heat.height() * y / 4).toPoint(),
          "attention heat map");
  for (int r = 0; r < attention->mapRows(); r += 3)
    for (int col = 0; col < attention->mapCols(); col += 4)
      c.click(attention->mapCanvas(), attention->mapCellRect(r, col).center().toPoint(),
              "attention token map");
  c.clickWidgets(w.attentionDock(), "attention dock:");
  w.attentionDock()->hide();

  // The compare grid: every view, at its tokens.
  w.startWith(sampleScene());
  w.setCompareMode(true);
  QCoreApplication::processEvents();
  for (int i = 0; i < w.compareView()->viewCount(); ++i) {
    PositionSpaceView* v = w.compareView()->view(i);
    c.clickCentre(v, "compare view " + std::to_string(i));
    for (long t = 0; t < long(v->ids().size()); t += 17) {
      const QPointF p = v->tokenPosition(t);
      if (p.x() >= 0)
        c.click(v, p.toPoint(),
                "compare view " + std::to_string(i) + " token " + std::to_string(t));
    }
  }
  saveScreen(QStringLiteral("compare-clicked"));
  w.setCompareMode(false);

  // The tour: F1, every Next, Back, Close, each a real click.
  w.startWith(sampleScene());
  w.activateWindow();
  ASSERT_TRUE(waitUntil([&] { return w.isActiveWindow(); }));
  QTest::keyClick(&w, Qt::Key_F1);
  ASSERT_TRUE(w.tourPanel()->running());
  auto* next = w.tourPanel()->findChild<QAbstractButton*>(QStringLiteral("tourNext"));
  auto* back = w.tourPanel()->findChild<QAbstractButton*>(QStringLiteral("tourBack"));
  auto* close = w.tourPanel()->findChild<QAbstractButton*>(QStringLiteral("tourClose"));
  for (int i = 0; i + 1 < w.tourPanel()->stepCount(); ++i) {
    c.clickCentre(next, "tour Next " + std::to_string(i));
    if (i == 2) saveScreen(QStringLiteral("tour-clicked"));
  }
  c.clickCentre(back, "tour Back");
  c.clickCentre(close, "tour Close");
  EXPECT_FALSE(w.tourPanel()->running());

  // Every menu action (dialogs answered by backing out), Quit aside.
  std::function<void(QMenu*)> visit = [&](QMenu* menu) {
    for (QAction* a : menu->actions()) {
      if (a->isSeparator() || !a->isEnabled()) continue;
      if (a->menu()) {
        visit(a->menu());
        continue;
      }
      if (a->text().contains(QStringLiteral("Quit"))) continue;
      a->trigger();
      ++c.clicks;
      c.expectAliveAndOnScreen("menu " + a->text().toStdString());
    }
  };
  for (QAction* a : w.menuBar()->actions())
    if (a->menu()) visit(a->menu());

  std::printf("[ clicks ] %d clicks and menu actions, %d dialogs and popups backed out of\n",
              c.clicks, backOut.closed);
  EXPECT_GE(c.clicks, 300);
  EXPECT_GE(backOut.closed, 5);
  w.setCompareMode(false);
  w.startWith(w.model()->scene());  // no unsaved-changes prompt
}

}  // namespace
