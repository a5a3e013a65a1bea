// Layer attention cases shared by the CPU and GPU tests: a small scene with one picture, random
// q/k, and a hand-made decoder layer of each kind the preview models (sliding window, chunk,
// Gemma 3's picture blocks, a NoPE layer with Llama 4's temperature, a logit scale).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/layer_attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

struct LayerCase {
  const char* name;
  const char* layout;
  LayerAttention attention;
  long long window;
  bool rotary;
  bool temperature;
  bool pictureBlocks;
  double logitScale;
  int headDim;
};

inline const std::vector<LayerCase>& layerCases() {
  static const std::vector<LayerCase> cases{
      {"sliding", "t5,i4x4,t6", LayerAttention::Sliding, 5, true, false, false, 0.0, 64},
      {"chunked", "t5,i4x4,t6", LayerAttention::Chunked, 8, true, false, false, 0.0, 64},
      {"sliding_pictures", "t5,i4x4,t6,i3x3,t4", LayerAttention::Sliding, 4, true, false, true, 0.0,
       32},
      {"full_pictures_scaled", "t3,i4x4,t2,i2x2,t3", LayerAttention::Full, 0, true, false, true,
       1.0 / std::sqrt(168.0), 64},
      {"nope_temperature", "t30", LayerAttention::Full, 0, false, true, false, 0.0, 32},
      {"chunked_nope_long", "t700", LayerAttention::Chunked, 96, false, false, false, 0.0, 32},
      {"sliding_long", "t40,i16x16,t30", LayerAttention::Sliding, 100, true, false, true, 0.0, 32},
  };
  return cases;
}

// One layer (index 0) of a one-layer stack as the case says.
inline LayerStack layerCaseStack(const LayerCase& c) {
  LayerStack st;
  st.name = c.name;
  StackLayer l;
  l.type = c.attention == LayerAttention::Sliding   ? "sliding_attention"
           : c.attention == LayerAttention::Chunked ? "chunked_attention"
                                                    : "full_attention";
  l.attention = c.attention;
  l.window = c.window;
  l.rotary = c.rotary;
  // A floor of 4 tokens and a large step make the temperature change within 30 tokens.
  if (c.temperature) l.temperature = AttentionTemperature{4.0, 0.5};
  st.layers.push_back(l);
  st.pictureBlocks = c.pictureBlocks;
  st.logitScale = c.logitScale;
  return st;
}

inline Scene layerCaseScene(const LayerCase& c) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(c.layout);
  s.design = "mrope";
  s.designParams = ParameterSet{};
  s.frequency.plan = "mrope";
  s.frequency.sections = {};
  s.frequency.rotary.headDim = c.headDim;
  s.frequency.rotary.rotaryDim = 0;
  return s;
}

// The problem through makeAttentionProblem and applyStackLayer (2 random heads).
inline AttentionProblem layerCaseProblem(const LayerCase& c) {
  const Scene s = layerCaseScene(c);
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.heads = 2;
  src.seed = 7;
  AttentionProblem p = makeAttentionProblem(s, src, true);
  applyStackLayer(p, layerCaseStack(c), 0, effectiveIds(s).tokens);
  return p;
}

}  // namespace ropescope
