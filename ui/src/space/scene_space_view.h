// The main window's 3-D view of the scene: a PositionSpaceView that observes the model itself.
// A selection click redraws the selection's cone; an edit of the ids rebuilds the tokens. Hidden
// (compare mode's page), it stays dirty until shown (model/when_shown.h).
#pragma once

#include "ropescope/scene_changes.h"
#include "space/position_space_view.h"

namespace ropescope::ui {

class SceneModel;
class WhenShown;

class SceneSpaceView : public PositionSpaceView {
  Q_OBJECT

 public:
  explicit SceneSpaceView(SceneModel* model, QWidget* parent = nullptr);
  // Whether model changes wait for the view's next show.
  bool dirty() const;

 private:
  void onSceneChanged(SceneChanges parts);
  // Takes in what changed since the last refresh (pending_).
  void refresh();

  SceneModel* model_;
  WhenShown* shown_;
  SceneChanges pending_ = SceneChanges::all();
};

}  // namespace ropescope::ui
