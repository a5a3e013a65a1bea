// Which keys a layer's query sees (layer_stack.h): causal, and within the sliding window or the
// chunk, as transformers' masking_utils builds the mask (no padding, text tokens only; Gemma's
// bidirectional image blocks are not modelled). For a view that draws a layer's mask.
#pragma once

#include <vector>

#include "ropescope/layer_stack.h"

namespace ropescope {

// Whether the token at 0-based position `query` attends to the one at `key` in this layer:
// key <= query, and for a sliding layer key > query - window (causal_mask_function and
// sliding_window_overlay), for a chunked one key / window == query / window (chunked_overlay).
// A window of 0 (not in the config) is treated as full attention.
bool layerSees(const StackLayer& layer, long long query, long long key);

// The n x n mask, row `query`, column `key`, row-major (n * n entries; n up to 4096).
std::vector<unsigned char> layerMask(const StackLayer& layer, int n);

}  // namespace ropescope
