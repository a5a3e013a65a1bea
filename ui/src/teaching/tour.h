// The guided tour (Help → Tour, F1): a few steps from hard 1-D ids through M-RoPE to the
// Circle-RoPE cone. Each step is data — a scene change applied through the scene model, the side
// tab to show, and a title with two sentences on what changed and why it matters — shown in a
// non-modal panel with Back, Next and Close. Close (or Escape) gives back the scene the user had;
// the main window gives back the rest (side tab, phasor settings, camera).
#pragma once

#include <QString>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

#include "ropescope/scene.h"

class QLabel;
class QPushButton;

namespace ropescope::ui {

class SceneModel;

struct TourStep {
  QString title;
  QString text;                       // two sentences: what changed, why it matters
  std::function<void(Scene&)> apply;  // applied to the tour's base scene
  QString tab;                        // side tab to show: "charts", "phasor" or "picture"
  int phasorDirection = -1;           // PhasorView::Direction, -1 to leave it
  int phasorDistance = -1;
};

// The tour's steps in order.
std::vector<TourStep> tourSteps();
// The small image + text scene every step starts from.
Scene tourBaseScene();

class TourPanel : public QWidget {
  Q_OBJECT

 public:
  // onStep shows what a step needs beyond the scene (side tab, phasor settings).
  TourPanel(SceneModel* model, std::function<void(const TourStep&)> onStep,
            QWidget* parent = nullptr);

  // Remembers the user's scene and shows step 0.
  void start();
  void next();
  void back();
  // Ends the tour and restores the user's scene, unless the scene was changed since the tour's
  // last step (an edit or an opened file is the user's work and stays).
  void finish();
  bool running() const { return saved_.has_value(); }
  // The tour shows one of its own scenes (not a scene the user edited or opened meanwhile).
  bool showsItsScene() const;
  // The scene the user had when the tour started (valid while running()).
  const Scene& userScene() const { return *saved_; }
  int step() const { return step_; }
  int stepCount() const { return static_cast<int>(steps_.size()); }
  QString titleText() const;
  QString bodyText() const;
  QString counterText() const;

 signals:
  void started();
  void finished();

 private:
  void show(int step);

  SceneModel* model_;
  std::function<void(const TourStep&)> onStep_;
  std::vector<TourStep> steps_;
  int step_ = 0;
  std::optional<Scene> saved_;
  Scene applied_;  // the scene the current step set
  QLabel* counter_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* body_ = nullptr;
  QPushButton* back_ = nullptr;
  QPushButton* next_ = nullptr;
  QPushButton* close_ = nullptr;
};

}  // namespace ropescope::ui
