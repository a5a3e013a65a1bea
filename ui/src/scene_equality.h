// Field-by-field Scene comparison for the ui (unsaved-changes flag, skipping no-op edits).
// Needed because Scene::operator== is deleted while RotaryConfig has no operator==.
#pragma once

#include "ropescope/scene.h"

namespace ropescope::ui {

inline bool sameRotary(const RotaryConfig& a, const RotaryConfig& b) {
  return a.headDim == b.headDim && a.rotaryDim == b.rotaryDim && a.base == b.base;
}

inline bool sameScene(const Scene& a, const Scene& b) {
  return a.layout == b.layout && a.design == b.design && a.designParams == b.designParams &&
         a.frequency.plan == b.frequency.plan &&
         sameRotary(a.frequency.rotary, b.frequency.rotary) &&
         a.frequency.sections == b.frequency.sections &&
         a.frequency.kvHeads == b.frequency.kvHeads && a.frequency.kvHead == b.frequency.kvHead &&
         a.age == b.age && a.selectedText == b.selectedText && a.ageLayer == b.ageLayer;
}

}  // namespace ropescope::ui
