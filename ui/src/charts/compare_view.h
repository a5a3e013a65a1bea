// Compare mode: one layout under several designs side by side (by default the four schemes of
// the Circle-RoPE paper), each 3-D view titled with its design and PTD, with linked cameras.
#pragma once

#include <QTimer>
#include <QWidget>

#include <string>
#include <vector>

#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "space/position_space_view.h"

namespace ropescope::ui {

class SceneModel;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(SceneModel* model, QWidget* parent = nullptr);
  ~CompareView() override;

  const std::vector<std::string>& designs() const { return designs_; }
  PositionSpaceView* view(int i) const { return views_[static_cast<std::size_t>(i)]; }
  int viewCount() const { return static_cast<int>(views_.size()); }
  // PTD each view's title shows, in designs() order (NaN where the design failed).
  const std::vector<double>& ptds() const { return ptds_; }

  void setColorMode(ColorMode mode);
  void setDark(bool dark);
  void applyPreset(CameraPreset preset);
  // Recomputes from the model; done lazily while the view is hidden. The four designs' ids are
  // recomputed only when a part they read changed (not for a selection click).
  void refresh();
  // How often the four designs' ids were computed (tests).
  int computations() const { return computations_; }

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  // Turns every other view's camera the way `source` turned, each keeping its own framing.
  void followCamera(PositionSpaceView* source);

  SceneModel* model_;
  std::vector<std::string> designs_;
  std::vector<PositionSpaceView*> views_;
  std::vector<double> ptds_;
  std::vector<double> distances_;  // each camera's distance after the last sync
  // Each design's ids for `computedFor_`: a selection change redraws without recomputing.
  Scene computedFor_;
  bool computed_ = false;
  int computations_ = 0;
  std::vector<DesignIds> shown_;
  std::vector<QString> errors_;  // per design; empty where it computed
  bool dirty_ = true;
  // Coalesces a burst of edits (a slider drag on a large scene) into one recompute of the four
  // designs once the queued events are handled.
  QTimer* refreshTimer_ = nullptr;
};

}  // namespace ropescope::ui
