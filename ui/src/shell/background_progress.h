// The status bar's progress of the background computations of a scene (SceneModel's
// backgroundProgress: an edited huge scene, its bias spread, the every-design charts), with a
// Cancel button; Esc in the window cancels too while something runs. Hidden while nothing runs,
// and for work that ends within kShowAfterMs (a dragged slider on a mid-size scene must not make
// the status bar lay itself out on every frame).
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QShortcut;
class QTimer;
class QToolButton;

namespace ropescope::ui {

class SceneModel;

class BackgroundProgress : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kShowAfterMs = 300;
  // `window`: where Esc cancels.
  BackgroundProgress(SceneModel* model, QWidget* window);

  QToolButton* cancelButton() const { return cancel_; }
  QProgressBar* bar() const { return bar_; }
  QString taskText() const;
  // Tests: shows the widget at once when something runs instead of after kShowAfterMs.
  void showAtOnce(bool atOnce) { atOnce_ = atOnce; }

 private:
  void refresh();

  SceneModel* model_;
  QLabel* task_;
  QProgressBar* bar_;
  QToolButton* cancel_;
  QShortcut* escape_;
  QTimer* reveal_;
  bool atOnce_ = false;
};

}  // namespace ropescope::ui
