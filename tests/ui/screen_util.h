// The screen the GUI tests under a window manager run on (tests/ui/with_openbox.sh inside
// xvfb-run at the size ctest names in ROPESCOPE_SCREEN), and what "fits on it" means: a
// window's frame (with the manager's decorations) inside the screen's available geometry, and
// no minimum size above the smallest supported screen.
#pragma once

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QDialog>
#include <QGuiApplication>
#include <QMessageBox>
#include <QScreen>
#include <QSize>
#include <QString>
#include <QWidget>

#include <string>

#include "gui_test_util.h"

namespace ropescope::ui::test {

// The smallest screen the app supports, less a desktop's panels: nothing may need more.
inline constexpr QSize kLargestMinimum(1366, 700);

// Fails (never skips) when not run the way ctest runs it: under openbox, on the named screen.
inline void expectManagedScreen() {
  ASSERT_EQ(qgetenv("ROPESCOPE_WINDOW_MANAGER"), QByteArray("openbox"))
      << "run under tests/ui/with_openbox.sh (ctest -R ui_gui.Screen)";
  const QByteArray want = qgetenv("ROPESCOPE_SCREEN");
  ASSERT_FALSE(want.isEmpty()) << "ROPESCOPE_SCREEN (e.g. 1366x768) names the screen size";
  const QSize size = QGuiApplication::primaryScreen()->size();
  ASSERT_EQ(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()).toUtf8(), want);
}

inline std::string rectText(const QRect& r) {
  return std::to_string(r.width()) + "x" + std::to_string(r.height()) + "+" +
         std::to_string(r.x()) + "+" + std::to_string(r.y());
}

// Backs out of a modal window the way a user would: a message box's Escape button (or its
// first), a dialog's Cancel, any other window closed.
inline void dismissModal(QWidget* m) {
  if (auto* box = qobject_cast<QMessageBox*>(m)) {
    QAbstractButton* b = box->escapeButton();
    if (!b && !box->buttons().isEmpty()) b = box->buttons().first();
    if (b) return b->click();
  }
  if (auto* d = qobject_cast<QDialog*>(m)) return d->reject();
  m->close();
}

// The window manager has framed `top` (Qt knows the frame's margins) and it is exposed.
inline bool waitForFrame(QWidget* top) {
  return waitUntil([top] {
    return top->isVisible() && top->windowHandle() && top->windowHandle()->isExposed() &&
           top->frameGeometry() != top->geometry();
  });
}

// `top`'s frame lies inside the available geometry of its screen, and its minimum size hint
// and minimum size are within kLargestMinimum.
inline void expectFitsTheScreen(QWidget* top, const std::string& what) {
  QCoreApplication::processEvents();
  ASSERT_TRUE(waitForFrame(top)) << what;
  const QRect avail = top->screen()->availableGeometry();
  EXPECT_TRUE(avail.contains(top->frameGeometry()))
      << what << ": frame " << rectText(top->frameGeometry()) << " is not inside the screen's "
      << rectText(avail);
  const QSize hint = top->minimumSizeHint();
  EXPECT_LE(hint.width(), kLargestMinimum.width()) << what << ": minimum size hint width";
  EXPECT_LE(hint.height(), kLargestMinimum.height()) << what << ": minimum size hint height";
  EXPECT_LE(top->minimumWidth(), kLargestMinimum.width()) << what << ": minimum width";
  EXPECT_LE(top->minimumHeight(), kLargestMinimum.height()) << what << ": minimum height";
}

}  // namespace ropescope::ui::test
