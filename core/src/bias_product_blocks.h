// The bias spread over visual blocks that are whole grids: b = base + F_t(frame) + F_h(row) +
// F_w(col), so a block's deviation sum comes from sorted row + col sums, once per frame.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ropescope/position_ids.h"

namespace ropescope::detail {

// Frames from which a block's deviation is taken from its sorted row + col sums (sorting
// rows x cols values, then a binary search per frame) rather than token by token.
inline constexpr std::size_t kSortedFrames = 16;

// A block whose tokens are every (frame, row, col) of a frames x rows x cols grid, each once,
// with t, h and w functions of frame, row and col alone. index[a] (a = t, h, w) holds, per
// frame, row or col, the index of its coordinate in the axis's distinct values; empty where
// the axis has no pairs.
struct ProductBlock {
  std::size_t frames = 0, rows = 0, cols = 0;
  std::array<std::vector<std::uint32_t>, 3> index;
};

// The blocks of `to` (indices into ids; blocks are runs of one segment) when every one is such
// a grid; empty otherwise. axisIndex[a]: per token of `to`, the index of its coordinate on axis
// a (t, h, w) among the distinct values; nullptr where the axis has no pairs.
std::vector<ProductBlock> productBlocks(const PositionIds& ids, const std::vector<std::size_t>& to,
                                        const std::array<const std::uint32_t*, 3>& axisIndex);

// For one text token: lut[a] is F_a at (text - value) per distinct value of axis a (nullptr: no
// pairs on it). The sum of b over every token of the blocks, and the sum of |b - mean|.
double productBlocksSum(const std::vector<ProductBlock>& blocks,
                        const std::array<const double*, 3>& lut, double base);
double productBlocksAbsDeviation(const std::vector<ProductBlock>& blocks,
                                 const std::array<const double*, 3>& lut, double base, double mean,
                                 std::vector<double>& scratch);

}  // namespace ropescope::detail
