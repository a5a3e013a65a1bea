// Which parts of a Scene an edit touches, and which parts each live result reads: the rule the
// desktop app's model and views use to recompute only what an edit changed (a click on a text
// token must not recompute the design comparison or rebuild the 3-D geometry).
#pragma once

#include <cstdint>

#include "ropescope/scene.h"

namespace ropescope {

// One bit per part of a Scene. Every Scene field belongs to exactly one part.
enum class ScenePart : std::uint32_t {
  Layout = 1u << 0,     // layout: the tokens, their segments and picture grids
  ImageGrid = 1u << 1,  // imageGrid: how picture files become grids (the layout follows it)
  Design = 1u << 2,     // design, designParams, ageLayer, idsFile, fileIds: the rule for the ids
  Age = 1u << 3,        // age: the AGE schedule (which layers use circle ids)
  Frequency = 1u << 4,  // frequency: the rotary pairs (bias, decay, wavelengths)
  Selection = 1u << 5,  // selectedText: the text token whose profiles the views show
  Label = 1u << 6,      // model: a name shown beside the design, read by no result
};

// A set of ScenePart bits.
class SceneChanges {
 public:
  constexpr SceneChanges() = default;
  constexpr SceneChanges(ScenePart part) : bits_(static_cast<std::uint32_t>(part)) {}
  static constexpr SceneChanges all() { return SceneChanges(kAllBits); }

  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool touches(SceneChanges parts) const { return (bits_ & parts.bits_) != 0; }
  // True when every changed part is among `parts` (an empty set is within any).
  constexpr bool within(SceneChanges parts) const { return (bits_ & ~parts.bits_) == 0; }
  constexpr std::uint32_t bits() const { return bits_; }
  constexpr SceneChanges operator|(SceneChanges o) const { return SceneChanges(bits_ | o.bits_); }
  constexpr SceneChanges& operator|=(SceneChanges o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr bool operator==(const SceneChanges&) const = default;

 private:
  static constexpr std::uint32_t kAllBits = (1u << 7) - 1;
  constexpr explicit SceneChanges(std::uint32_t bits) : bits_(bits) {}
  std::uint32_t bits_ = 0;
};

constexpr SceneChanges operator|(ScenePart a, ScenePart b) {
  return SceneChanges(a) | SceneChanges(b);
}

// The parts of `before` that differ in `after`. Empty exactly when the scenes are equal; a
// difference in a field the function does not know (a field added to Scene later) counts as
// every part, so that nothing is left stale.
SceneChanges sceneChanges(const Scene& before, const Scene& after);

// What each result of the live views reads (scene_metrics.h):
// the position ids, PTD and the 3-D geometry;
inline constexpr SceneChanges kIdsParts =
    ScenePart::Layout | ScenePart::ImageGrid | ScenePart::Design | ScenePart::Age;
// the rotary pairs, decay curves and wavelengths;
inline constexpr SceneChanges kFrequencyParts = ScenePart::Frequency;
// the bias spread (ids and pairs);
inline constexpr SceneChanges kBiasParts = kIdsParts | kFrequencyParts;
// the all-designs comparison and the modality table (compareDesigns, sceneModalityMetrics):
// everything but the selection and the label;
inline constexpr SceneChanges kComparisonParts = kBiasParts;
// the selected text token's distance and bias to every visual token.
inline constexpr SceneChanges kSelectionParts = kBiasParts | ScenePart::Selection;

}  // namespace ropescope
