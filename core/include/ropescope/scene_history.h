// Undo and redo of a scene's edits (the desktop app's Edit menu). A step is the scene before an
// edit. Edits of the same fields join the newest step while it is open, so that a slider dragged
// through a hundred values is undone at once; an edit of other fields, or any edit after
// endStep() (a value committed with Return, a slider released), starts a new step. A click that
// only selects a token is no step.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "ropescope/scene.h"

namespace ropescope {

class SceneHistory {
 public:
  // At most this many steps, and scenes of at most this many bytes in all (a scene with a
  // million loaded ids is 24 MB), are kept; the oldest go first. The newest step always stays.
  static constexpr std::size_t kMaxSteps = 200;
  static constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
  // The memory a kept scene takes, roughly: its loaded ids and its layout's segments and files.
  static std::size_t footprint(const Scene& scene);

  // An edit took the scene from `before` to `after`: it joins the newest step if that step is
  // open and changed the same fields, else it starts a step.
  void record(const Scene& before, const Scene& after);
  // The newest step is finished: the next edit starts a step of its own, whatever it changes.
  void endStep() { open_ = false; }
  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }
  // The scene an undo (redo) goes to from `current`, which the redo (undo) list keeps. Only
  // when canUndo() (canRedo()).
  Scene undo(const Scene& current);
  Scene redo(const Scene& current);
  // A scene opened or started afresh: nothing before it to go back to.
  void clear();

  // The fields an edit from `before` to `after` changed: scene field keys ("base", "layout"),
  // "design_params.KEY" for a design parameter, "rope.type" / "rope.KEY" for the rope scaling's
  // type and each of its keys (lists, "rope.max_position_id"), "" for anything else; the
  // selection is left out.
  static std::set<std::string> changedFields(const Scene& before, const Scene& after);

 private:
  // The newest scene of `from`, taken off it; `current` goes onto `to`.
  Scene move(std::vector<Scene>& from, std::vector<Scene>& to, const Scene& current);

  // Drops the oldest undo steps past kMaxSteps or kMaxBytes (the redo list counts too).
  void trim();

  std::vector<Scene> undo_, redo_;
  std::set<std::string> lastFields_;  // what the newest step's edits changed
  bool open_ = false;                 // the newest step still takes edits of the same fields
};

}  // namespace ropescope
