// One attention test case (layout, design, plan, head and rotary dims, mask, q/k source, pair
// layout, sections) and the Scene it stands for; shared by the CPU and GPU attention tests so both
// run the same cases.
#pragma once

#include <ostream>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/scene.h"

namespace ropescope {

struct Case {
  const char* layout;
  const char* design;
  const char* plan;
  int headDim;
  int rotaryDim;
  bool causal;
  QkSourceSpec::Kind source;
  int heads;
  PairLayout pairs = PairLayout::NeoX;
  std::vector<int> sections = {};  // empty: the plan's default
  double base = 0.0;               // 0: the default scene's
};

// gtest prints a failing case by its fields, not its bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.layout << " " << c.design << " " << c.plan << " d=" << c.headDim << " r=" << c.rotaryDim
      << " " << pairLayoutName(c.pairs) << (c.causal ? " causal" : "");
}

inline Scene attentionCaseScene(const Case& c) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(c.layout);
  s.design = c.design;
  s.designParams = ParameterSet{};
  s.frequency.plan = c.plan;
  s.frequency.sections = c.sections;
  s.frequency.rotary.headDim = c.headDim;
  s.frequency.rotary.rotaryDim = c.rotaryDim;
  s.frequency.rotary.pairs = c.pairs;
  if (c.base > 0) s.frequency.rotary.base = c.base;
  return s;
}

}  // namespace ropescope
