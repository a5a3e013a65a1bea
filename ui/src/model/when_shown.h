// Dirty until shown: a view's refresh runs at once while the view can be seen, and waits for the
// view's next show while it sits hidden (another tab, the other page of a stack) in a shown window.
#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace ropescope::ui {

class WhenShown : public QObject {
 public:
  // What a view that is not visible does while its window is not shown either.
  enum class UnshownWindow {
    Refresh,  // refresh now: nothing decides then what is seen (tests, figure export)
    Wait,     // wait for the view's show: work that is only for the eye (the attention preview)
  };
  // `view` owns this object; `refresh` recomputes what the view shows from the model.
  WhenShown(QWidget* view, std::function<void()> refresh,
            UnshownWindow unshown = UnshownWindow::Refresh);

  // Runs the refresh now when the view can be seen (or, by `unshown`, when its window is not
  // shown); else marks the view dirty until shown.
  void request();
  bool dirty() const { return dirty_; }
  // Runs a pending refresh now (for a reader of the view's state while it is hidden).
  void flush();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QWidget* view_;
  std::function<void()> refresh_;
  UnshownWindow unshown_;
  bool dirty_ = false;
};

}  // namespace ropescope::ui
