#include "shell/shortcut_guard.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>

namespace ropescope::ui {

ShortcutGuard::ShortcutGuard(QList<QAction*> actions, QObject* parent)
    : QObject(parent), actions_(std::move(actions)) {}

bool ShortcutGuard::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::ShortcutOverride) return false;
  if (!qobject_cast<QLineEdit*>(watched) && !qobject_cast<QAbstractSpinBox*>(watched)) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  for (const QKeySequence::StandardKey textKey :
       {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo,
        QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::Delete})
    if (key->matches(textKey)) return false;
  const QKeySequence pressed(key->keyCombination());
  for (const QAction* action : actions_)
    if (action->isEnabled() && action->shortcut() == pressed) {
      event->ignore();  // not the field's: the shortcut map gives it to the action
      return true;
    }
  return false;
}

}  // namespace ropescope::ui
