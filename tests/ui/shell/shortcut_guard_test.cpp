// A menu shortcut pressed in a text field reaches its action (shell/shortcut_guard.h): Qt's line
// edit kept Ctrl+E for itself (end of line), so "Export 3-D view" did nothing from the layout
// line. Keys a field needs for its text stay with the field.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMainWindow>
#include <QTest>

#include "shell/shortcut_guard.h"

using ropescope::ui::ShortcutGuard;

TEST(ShortcutGuard, AMenuShortcutWorksFromATextFieldAndTextKeysStayWithIt) {
  QMainWindow w;
  auto* line = new QLineEdit(QStringLiteral("t5,i3x3"));
  w.setCentralWidget(line);
  int exported = 0, copied = 0;
  auto* exportAction = new QAction(QStringLiteral("Export"), &w);
  exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  QObject::connect(exportAction, &QAction::triggered, [&exported] { ++exported; });
  auto* copyAction = new QAction(QStringLiteral("Copy figure"), &w);
  copyAction->setShortcut(QKeySequence::Copy);
  QObject::connect(copyAction, &QAction::triggered, [&copied] { ++copied; });
  w.addAction(exportAction);
  w.addAction(copyAction);
  w.show();
  w.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
  line->setFocus();
  line->setCursorPosition(0);

  // Without the guard the field takes Ctrl+E (what the user saw).
  QTest::keyClick(line, Qt::Key_E, Qt::ControlModifier);
  ASSERT_EQ(exported, 0) << "Qt's line edit no longer claims Ctrl+E";
  EXPECT_EQ(line->cursorPosition(), line->text().size());  // moved to the end

  ShortcutGuard guard({exportAction, copyAction});
  QApplication::instance()->installEventFilter(&guard);
  line->setCursorPosition(0);
  QTest::keyClick(line, Qt::Key_E, Qt::ControlModifier);
  EXPECT_EQ(exported, 1);
  EXPECT_EQ(line->cursorPosition(), 0);  // the field did not take it
  // Off, the action does not take the key from the field.
  exportAction->setEnabled(false);
  QTest::keyClick(line, Qt::Key_E, Qt::ControlModifier);
  EXPECT_EQ(exported, 1);
  exportAction->setEnabled(true);
  // Copy stays the field's, though an action has it too.
  line->selectAll();
  QTest::keyClick(line, Qt::Key_C, Qt::ControlModifier);
  EXPECT_EQ(copied, 0);
  EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("t5,i3x3"));
  QApplication::instance()->removeEventFilter(&guard);
}
