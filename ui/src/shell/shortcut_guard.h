// The window's menu shortcuts work from a text field too. Qt's line edit claims some Ctrl keys
// for its own editing (Ctrl+E moves to the end of the line in its X11 bindings), so Ctrl+E in
// the layout line or a number box did nothing, while Ctrl+I and Ctrl+O worked from there.
#pragma once

#include <QList>
#include <QObject>

class QAction;

namespace ropescope::ui {

// Installed on the application: a key a text field asks to keep (a shortcut override) goes to
// one of `actions` instead where it is that action's shortcut and the action is enabled. Keys a
// field needs for text (copy, paste, select all, ...) stay with the field. Undo stays with it
// while it holds typing not yet handed over (modified, with something to undo), and Redo while
// it has a redo of its own; else they go to the window's Undo and Redo: after Return the field
// shows the scene's value, and Ctrl+Z there did nothing at all.
class ShortcutGuard : public QObject {
 public:
  ShortcutGuard(QList<QAction*> actions, QObject* parent = nullptr);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QList<QAction*> actions_;
};

}  // namespace ropescope::ui
