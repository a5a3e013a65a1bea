// A wheel turned over a scrolling panel scrolls it. Without this, a spin box, combo box or
// slider that passed under the pointer while the user scrolled the scene panel took the wheel
// and changed its value (Circle-RoPE's radius mode went from fixed to auto, unseen).
#pragma once

#include <QObject>

class QWidget;

namespace ropescope::ui {

// Installed on the application: a spin box, combo box or slider inside a scroll area takes the
// wheel only once it has the keyboard focus (clicked or tabbed into); before that the wheel goes
// to the scroll areas around it, the innermost that can still move first. A field outside any
// scroll area (a toolbar's) keeps Qt's behaviour.
class WheelGuard : public QObject {
 public:
  explicit WheelGuard(QObject* parent = nullptr);
  // Whether `w` is a field the guard keeps from an unfocused wheel.
  static bool guards(const QWidget* w);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ropescope::ui
