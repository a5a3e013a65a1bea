// The JSON summary `ropescope attention` prints: the scene and problem it ran on, how q/k were
// made, what was written, the backend, and per-row statistics. One member per line (see
// json_lines.h), doubles shortest round trip.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/scene.h"

namespace ropescope {

// What the run did, beside the scene and the problem.
struct AttentionRun {
  QkSourceSpec source;  // kind; seed written for random, the file names for files
  bool causal = false;
  // With a model's layer (layer_attention.h): its index and the one line of what the preview
  // applies (layerAttentionSummary), written as "layer" and "layer_mask"; -1: none.
  int layer = -1;
  std::string layerMask;
  bool softmax = false;  // value "softmax", else "logits"
  std::size_t rowBegin = 0, rowEnd = 0;
  int pool = 0;                       // 0: rows; else written as "pool"
  std::string out;                    // "" : null
  std::vector<std::size_t> outShape;  // with out: [heads, rows, cols]
  std::string backend, backendDetail;
  std::string backendNote;     // written when not empty
  bool fellBack = false;       // the GPU was there but failed: backend_fallback_reason written
  std::string fallbackReason;  // why
  Summary3 rowMaxLogit, rowMaxProbability, rowEntropy;
  double seconds = 0.0;  // written rounded to 1e-4
};

std::string attentionReport(const Scene& scene, const AttentionProblem& problem,
                            const AttentionRun& run);

}  // namespace ropescope
