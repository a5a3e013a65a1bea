// The bias b from one position to every visual token: the profile the live views show for the
// selected text token. The visual tokens' distinct coordinates are indexed once per set of ids
// (sorting them costs more than a profile); a profile then takes each pair's cosine once per
// distinct coordinate, vectorised, and one lookup per axis per token. A click on another text
// token of t1000,i500x500 under circle ids (250k distinct values per axis) costs 16M cosines.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

// Per coordinate axis (kCoordinateAxes: t, h, w, h+w-t), the distinct coordinates of a list of
// tokens in ascending order and each token's index into them.
struct TokenAxisIndex {
  std::array<std::vector<double>, 4> values;
  std::array<std::vector<std::uint32_t>, 4> index;
  std::size_t tokens = 0;
};

// The index of `tokens` (indices into ids), in that order; the axes a is false in `axes` for are
// left empty.
TokenAxisIndex tokenAxisIndex(const PositionIds& ids, const std::vector<std::size_t>& tokens,
                              int threads = 1, std::array<bool, 4> axes = {true, true, true, true});

// b(position, k) = (1/n) sum_p cos(theta_p (c_p(position) - c_p(k))) for every indexed token k,
// c_p the coordinate of pair p's axis (axisCoordinate). The same value as biasTo within a few
// ulp (libmvec's cosines, summed per axis); the same bits for every thread count.
std::vector<double> biasProfile(const TokenAxisIndex& index, const PairTable& pairs,
                                const Id3& position, int threads = 1);

}  // namespace ropescope
