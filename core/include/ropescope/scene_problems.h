// Every problem of a scene at once, one per field, for an editor that shows each message beside
// its own field (validateScene stops at the first).
#pragma once

#include <vector>

#include "ropescope/errors.h"
#include "ropescope/scene.h"

namespace ropescope {

// The problems of `scene` in validateScene's order: its first is the one validateScene throws.
// After each, the field it names is taken from `fallback` (a scene that passes: the one shown
// last) and the scene checked again, so a second bad field is found behind the first. Stops at
// a problem without a field or whose field cannot be taken over, and where a field taken over
// is still bad (the fallback's own problem). Empty when the scene passes.
std::vector<InputError> sceneProblems(const Scene& scene, const Scene& fallback);

}  // namespace ropescope
