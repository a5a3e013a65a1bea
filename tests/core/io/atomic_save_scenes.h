// The two scenes atomic_save_test and its child process save: large enough (a few MiB of JSON)
// that a kill lands in the middle of a write, and different from each other everywhere.
#pragma once

#include <string>

#include "ropescope/layout.h"
#include "ropescope/scene.h"

namespace ropescope::test {

// Segments of each scene. A save under ASan is several times slower, so a third of them still
// leaves kills in the middle of writes while the child's start before each kill (two scenes
// built, one saved) costs a third.
#ifdef ROPESCOPE_ASAN
inline constexpr int kBigSceneSegments = 20000;
#else
inline constexpr int kBigSceneSegments = 60000;
#endif

inline Scene bigScene(int which) {
  Scene s = defaultScene();
  std::string spec;
  for (int k = 0; k < kBigSceneSegments; ++k) spec += which ? "t2,i1x2," : "t1,i2x1,";
  spec += "t3";
  s.layout = parseLayoutSpec(spec);
  s.frequency.rotary.base = which ? 5e5 : 1e6;
  s.selectedText = which;
  return s;
}

}  // namespace ropescope::test
