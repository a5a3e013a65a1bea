#include "shell/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace ropescope::ui {

namespace {

bool insideScrollArea(const QWidget* w) {
  for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
    if (qobject_cast<const QAbstractScrollArea*>(p)) return true;
  return false;
}

}  // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent) {}

bool WheelGuard::guards(const QWidget* w) {
  const bool field =
      qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w) ||
      (qobject_cast<const QAbstractSlider*>(w) && !qobject_cast<const QScrollBar*>(w));
  return field && insideScrollArea(w);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::Wheel && type != QEvent::Polish && type != QEvent::Show) return false;
  auto* w = qobject_cast<QWidget*>(watched);
  if (!w || !guards(w)) return false;
  if (type != QEvent::Wheel) {
    // No focus from the wheel itself (Qt gives it before any filter sees the event). Also when
    // shown: a field polished before its panel was put into the scroll area (a spin box sized
    // in its constructor) was not inside one yet, kept its wheel focus, and the first notch
    // that brought it under the pointer focused it: the next ones changed its value.
    if ((w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (w->hasFocus()) return false;  // the field the user is editing takes the wheel
  const auto* wheel = static_cast<QWheelEvent*>(event);
  for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
    auto* area = qobject_cast<QAbstractScrollArea*>(p);
    if (!area) continue;
    QWheelEvent scroll(area->viewport()->mapFromGlobal(wheel->globalPosition()),
                       wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                       wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted());
    scroll.ignore();
    QCoreApplication::sendEvent(area->viewport(), &scroll);
    if (scroll.isAccepted()) break;  // else an outer area (the table's panel) scrolls
  }
  return true;  // never the unfocused field's
}

}  // namespace ropescope::ui
