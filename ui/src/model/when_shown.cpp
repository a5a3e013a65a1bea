#include "model/when_shown.h"

#include <QEvent>
#include <QWidget>

namespace ropescope::ui {

WhenShown::WhenShown(QWidget* view, std::function<void()> refresh, UnshownWindow unshown)
    : QObject(view), view_(view), refresh_(std::move(refresh)), unshown_(unshown) {
  view_->installEventFilter(this);
}

void WhenShown::request() {
  if (!view_->isVisible() && (view_->window()->isVisible() || unshown_ == UnshownWindow::Wait)) {
    dirty_ = true;
    return;
  }
  dirty_ = false;
  refresh_();
}

void WhenShown::flush() {
  if (!dirty_) return;
  dirty_ = false;
  refresh_();
}

bool WhenShown::eventFilter(QObject* watched, QEvent* event) {
  // Show arrives before the first paint of the shown view.
  if (watched == view_ && event->type() == QEvent::Show) flush();
  return QObject::eventFilter(watched, event);
}

}  // namespace ropescope::ui
