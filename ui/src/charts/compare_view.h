// Compare mode: one layout under several designs side by side (by default the four schemes of
// the Circle-RoPE paper), each 3-D view titled with its design and PTD, with linked cameras.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "space/position_space_view.h"

namespace ropescope::ui {

class LatestWorker;
class SceneModel;
class WhenShown;

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
  // recomputed only when a part they read changed (not for a selection click): at once for a
  // scene of up to `backgroundTokens()` tokens, on the background worker for a larger one (the
  // views keep the last ids, marked stale, until the new ones arrive).
  void refresh();
  // How often the four designs' ids were computed (tests), and whether the shown ids are of the
  // model's scene (none pending).
  int computations() const { return computations_; }
  bool settled() const;
  // Tests: the token count above which the designs' ids are computed in the background.
  void setBackgroundTokens(std::size_t tokens) { backgroundTokens_ = tokens; }
  std::size_t backgroundTokens() const { return backgroundTokens_; }

 signals:
  // New ids are shown (after a background computation too).
  void computed();

 private:
  // Draws the shown ids with the model's selection and stale mark.
  void draw();
  // What a stale view says while the worker computes a newer scene.
  QString computingNote() const;
  void accept(const Scene& scene, std::vector<DesignIds> ids, std::vector<QString> errors);
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
  // The scene whose ids the worker is computing; unset when none.
  std::optional<Scene> pendingFor_;
  std::size_t backgroundTokens_ = std::size_t(1) << 16;  // 4 x 65536 ids: about a frame
  WhenShown* whenShown_ = nullptr;        // hidden: model changes wait for the next show
  std::unique_ptr<LatestWorker> worker_;  // last: joined first
};

}  // namespace ropescope::ui
