// The Qwen-VL block walk shared by every design: text runs continue one past the walk's running
// maximum M; a visual block starts at off = M + 1 and its design decides its ids and the new M.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/position_ids.h"

namespace ropescope::detail {

struct BlockIds {
  std::vector<Id3> ids;  // frame -> row -> col order
  double walkMax = 0.0;  // M after the block: the next text id is walkMax + 1
};

// off = M + 1 of the walk (0 when the block opens the sequence).
using BlockRule = std::function<BlockIds(const Segment& seg, double off)>;

// Walks the layout. rope_delta = (final M + 1) - token count.
PositionIds walkLayout(const Layout& layout, const BlockRule& rule, std::string design,
                       MetricSpace space);

// M-RoPE style block: (off + tau(k), off + r, off + c), or (off + tau(k), r, c) with
// spatialReset. M = off + max(tau(T-1), H-1, W-1) in both cases (the reset design forces the
// next id to what M-RoPE would give).
BlockIds gridBlock(const Segment& seg, double off, const std::function<double(int)>& tau,
                   bool spatialReset);

// The block of transformers 5.3.0-5.5.3 (get_vision_position_ids before PR #45400): one
// temporal id t for every token, h = off + n / (W*T), w = off + n % W for the n-th token (h runs
// over all frames before it moves: wrong for T > 1, issue #45381); M = off + max(H, W) - 1, so
// the next text id is off + max(H, W).
BlockIds constantTimeBlock(const Segment& seg, double off, double t);

// VideoRoPE's diagonal layout with temporal stride delta: t = off + k*delta,
// h = t + r - floor((H-1)/2), w = t + c - floor((W-1)/2); M = off + (T-1)*delta (t row only).
BlockIds diagonalBlock(const Segment& seg, double off, double delta);

}  // namespace ropescope::detail
