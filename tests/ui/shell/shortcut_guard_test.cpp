// A menu shortcut pressed in a text field reaches its action (shell/shortcut_guard.h): Qt's line
// edit kept Ctrl+E for itself (end of line), so "Export 3-D view" did nothing from the layout
// line. Keys a field needs for its text stay with the field, Undo only while it has typing of
// its own to undo.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMainWindow>
#include <QTest>

#include "editors/open_spin_box.h"
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

// Undo stays with a field while it holds typing not yet handed over; with none of its own left
// (after Return its text is the scene's), Ctrl+Z goes to the window's Undo: after "alpha = -5"
// and Return, Ctrl+Z in the field did nothing at all. Redo stays with a field that has a redo.
TEST(ShortcutGuard, UndoInAFieldWithNothingOfItsOwnGoesToTheWindow) {
  QMainWindow w;
  auto* column = new QWidget;
  auto* line = new QLineEdit(QStringLiteral("t5,i3x3"), column);
  auto* box = new ropescope::ui::OpenIntSpinBox(column);
  box->setAcceptedRange(0, 1000);
  box->setKeyboardTracking(false);
  box->move(0, 40);
  w.setCentralWidget(column);
  int undone = 0, redone = 0;
  auto* undo = new QAction(QStringLiteral("Undo"), &w);
  undo->setShortcuts(QKeySequence::Undo);
  QObject::connect(undo, &QAction::triggered, [&undone] { ++undone; });
  auto* redo = new QAction(QStringLiteral("Redo"), &w);
  redo->setShortcuts(QKeySequence::Redo);
  QObject::connect(redo, &QAction::triggered, [&redone] { ++redone; });
  w.addAction(undo);
  w.addAction(redo);
  ShortcutGuard guard({undo, redo});
  QApplication::instance()->installEventFilter(&guard);
  w.show();
  w.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
  const QKeyCombination undoKey = QKeySequence(QKeySequence::Undo)[0];
  const QKeyCombination redoKey = QKeySequence(QKeySequence::Redo)[0];
  const auto press = [](QWidget* at, QKeyCombination k) {
    QTest::keyClick(at, k.key(), k.keyboardModifiers());
  };

  line->setFocus();
  line->end(false);
  QTest::keyClicks(line, QStringLiteral(",t1"));
  press(line, undoKey);  // the field's typing
  EXPECT_EQ(line->text(), QStringLiteral("t5,i3x3"));
  EXPECT_EQ(undone, 0);
  press(line, redoKey);  // the field's redo of it
  EXPECT_EQ(line->text(), QStringLiteral("t5,i3x3,t1"));
  EXPECT_EQ(redone, 0);
  line->setModified(false);  // handed over, as the layout line does on Return
  press(line, undoKey);
  EXPECT_EQ(undone, 1);
  EXPECT_EQ(line->text(), QStringLiteral("t5,i3x3,t1"));
  press(line, redoKey);
  EXPECT_EQ(redone, 1);

  // A spin box's committed value (Return) leaves it nothing to undo: the window's Undo.
  box->setFocus();
  box->selectAll();
  QTest::keyClicks(box, QStringLiteral("64"));
  press(box, undoKey);  // typing in progress: the box's
  EXPECT_EQ(undone, 1);
  box->selectAll();
  QTest::keyClicks(box, QStringLiteral("64"));
  QTest::keyClick(box, Qt::Key_Return);
  ASSERT_EQ(box->value(), 64);
  press(box, undoKey);
  EXPECT_EQ(undone, 2);
  EXPECT_EQ(box->value(), 64);
  // With the window's Undo off, the key stays the field's (it had nothing to undo: no change).
  undo->setEnabled(false);
  press(box, undoKey);
  EXPECT_EQ(undone, 2);
  QApplication::instance()->removeEventFilter(&guard);
}
