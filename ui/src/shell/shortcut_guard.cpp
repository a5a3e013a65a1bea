#include "shell/shortcut_guard.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>

namespace ropescope::ui {

ShortcutGuard::ShortcutGuard(QList<QAction*> actions, QObject* parent)
    : QObject(parent), actions_(std::move(actions)) {}

namespace {
// The text a field edits: the line edit itself, or a spin box's.
const QLineEdit* textOf(const QObject* field) {
  if (const auto* line = qobject_cast<const QLineEdit*>(field)) return line;
  if (const auto* box = qobject_cast<const QAbstractSpinBox*>(field))
    return box->findChild<const QLineEdit*>(QString(), Qt::FindDirectChildrenOnly);
  return nullptr;
}
}  // namespace

bool ShortcutGuard::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::ShortcutOverride) return false;
  const QLineEdit* text = textOf(watched);
  if (!text) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  if (key->matches(QKeySequence::Undo) && text->isModified() && text->isUndoAvailable())
    return false;
  if (key->matches(QKeySequence::Redo) && text->isRedoAvailable()) return false;
  for (const QKeySequence::StandardKey textKey :
       {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::SelectAll,
        QKeySequence::Delete})
    if (key->matches(textKey)) return false;
  const QKeySequence pressed(key->keyCombination());
  for (const QAction* action : actions_)
    if (action->isEnabled() && action->shortcuts().contains(pressed)) {
      event->ignore();  // not the field's: the shortcut map gives it to the action
      return true;
    }
  return false;
}

}  // namespace ropescope::ui
