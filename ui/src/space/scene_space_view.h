// The main window's 3-D view of the scene: a PositionSpaceView that observes the model itself.
// A selection click redraws the selection's cone; an edit of the ids rebuilds the tokens.
#pragma once

#include "ropescope/scene_changes.h"
#include "space/position_space_view.h"

namespace ropescope::ui {

class SceneModel;

class SceneSpaceView : public PositionSpaceView {
  Q_OBJECT

 public:
  explicit SceneSpaceView(SceneModel* model, QWidget* parent = nullptr);

 private:
  void onSceneChanged(SceneChanges parts);
  void showSelection();

  SceneModel* model_;
};

}  // namespace ropescope::ui
