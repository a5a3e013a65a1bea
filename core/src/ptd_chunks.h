// PTD by chunks of visual tokens (docs/math.md#ptd-at-scale): a chunk far from a text token
// gives its distance sum by a series of its moments, near and straddling chunks token by token.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "ropescope/metrics.h"
#include "ropescope/position_ids.h"

namespace ropescope::detail {

class ProgressMeter;

// The binomial series of sqrt(1 + e) is kept to e^kSeriesOrder and used only where every token
// of the chunk has |e| <= kFarRatio: the dropped tail is then below 2.3e-18 of the sum
// (docs/math.md#ptd-at-scale proves the bound).
inline constexpr int kSeriesOrder = 16;
inline constexpr double kFarRatio = 0.125;
// Tokens of a chunk: one 32 x 32 tile of a frame, or 1024 consecutive tokens of a run without
// grid cells.
inline constexpr int kChunkTile = 32;
inline constexpr std::size_t kChunkRun = 1024;

// A chunk's tokens around its centre x0 (the mean of all its coordinates, a point of the
// diagonal): with c = coordinates - x0 and u = x - x0 for the text point (x, ..., x) in m
// dimensions, d^2 = m u^2 - 2 u a + b with a = sum c, b = |c|^2. Tokens with equal (a, b) are kept
// once with their count. sigma = |g - x0|^2 of the centroid g.
struct PtdChunk {
  double x0 = 0.0;
  double sigma = 0.0;     // squared distance of the centroid from the diagonal
  double gammaSum = 0.0;  // sum of the centroid's components minus m x0 (0 up to rounding)
  double radius = 0.0;    // largest distance of a token from the centroid
  double count = 0.0;     // tokens
  double maxA = 0.0;      // max |a|
  double maxB = 0.0;      // max b
  double maxG = 0.0;      // max |b - sigma|
  std::size_t first = 0, size = 0;  // its entries in PtdChunks' arrays
  bool series = false;              // coefficients finite (else always summed token by token)
  // Diagonal form: sum_j d_j = sqrt(m) |u| sum_p diag[p] u^-p.
  std::array<double, 2 * kSeriesOrder + 1> diag{};
  // Centroid form: with D^2 = m u^2 + sigma, sum_j d_j = D sum_k D^-2k sum_i cent[k][i] u^i
  // (row k holds i = 0..k, rows stored one after another).
  std::array<double, (kSeriesOrder + 1) * (kSeriesOrder + 2) / 2> cent{};
};

struct PtdChunks {
  int dims = 3;
  std::vector<PtdChunk> chunks;
  // Entries, chunk after chunk: a' = -2 a and b (the distance kernels' form), the line
  // coordinate c (dims 1) and the count of tokens sharing them.
  std::vector<double> a, b, line, w;
};

// The chunks of the tokens `to` (indices into ids, in that order).
PtdChunks ptdChunks(const PositionIds& ids, const std::vector<std::size_t>& to);

// Sum of the distances from (x, ..., x) to the chunk's tokens by its series, or false when the
// chunk is too near for the series' bound (then *sum is untouched).
bool seriesDistanceSum(const PtdChunk& c, int dims, double x, double* sum);

// PTD for `text` (every id on the diagonal) against `to`: fills r.perText and r.meanDistance.
// Returns false when the meter says stop (r is then incomplete).
bool chunkedPtd(const PositionIds& ids, const std::vector<std::size_t>& text,
                const std::vector<std::size_t>& to, int threads, ProgressMeter& meter,
                PtdResult& r);

}  // namespace ropescope::detail
