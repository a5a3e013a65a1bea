// The two scenes atomic_save_test and its child process save: large enough (a few MiB of JSON)
// that a kill lands in the middle of a write, and different from each other everywhere.
#pragma once

#include <string>

#include "ropescope/layout.h"
#include "ropescope/scene.h"

namespace ropescope::test {

inline Scene bigScene(int which) {
  Scene s = defaultScene();
  std::string spec;
  for (int k = 0; k < 60000; ++k) spec += which ? "t2,i1x2," : "t1,i2x1,";
  spec += "t3";
  s.layout = parseLayoutSpec(spec);
  s.frequency.rotary.base = which ? 5e5 : 1e6;
  s.selectedText = which;
  return s;
}

}  // namespace ropescope::test
