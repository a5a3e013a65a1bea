// Which parts of a Scene an edit touches.
#include "ropescope/scene_changes.h"

namespace ropescope {

SceneChanges sceneChanges(const Scene& before, const Scene& after) {
  SceneChanges c;
  if (!(before.layout == after.layout)) c |= ScenePart::Layout;
  if (!(before.imageGrid == after.imageGrid)) c |= ScenePart::ImageGrid;
  if (before.design != after.design || !(before.designParams == after.designParams) ||
      before.ageLayer != after.ageLayer || before.idsFile != after.idsFile ||
      before.fileIds != after.fileIds)
    c |= ScenePart::Design;
  if (!(before.age == after.age)) c |= ScenePart::Age;
  if (!(before.frequency == after.frequency)) c |= ScenePart::Frequency;
  if (before.selectedText != after.selectedText) c |= ScenePart::Selection;
  if (before.model != after.model) c |= ScenePart::Label;
  // A field this function does not compare yet: everything may depend on it.
  if (c.empty() && !(before == after)) return SceneChanges::all();
  return c;
}

}  // namespace ropescope
