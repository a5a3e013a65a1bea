// Product blocks of the bias spread (bias_product_blocks.h).
#include "bias_product_blocks.h"

#include <algorithm>
#include <cmath>

namespace ropescope::detail {

std::vector<ProductBlock> productBlocks(const PositionIds& ids, const std::vector<std::size_t>& to,
                                        const std::array<const std::uint32_t*, 3>& axisIndex) {
  std::vector<ProductBlock> blocks;
  std::size_t i = 0;
  constexpr std::uint32_t kUnset = 0xffffffffu;
  while (i < to.size()) {
    std::size_t j = i;
    const int seg = ids.tokens[to[i]].segment;
    int frames = 0, rows = 0, cols = 0;
    while (j < to.size() && ids.tokens[to[j]].segment == seg) {
      const TokenInfo& t = ids.tokens[to[j]];
      if (t.frame < 0 || t.row < 0 || t.col < 0) return {};
      frames = std::max(frames, t.frame + 1);
      rows = std::max(rows, t.row + 1);
      cols = std::max(cols, t.col + 1);
      ++j;
    }
    ProductBlock b;
    b.frames = static_cast<std::size_t>(frames);
    b.rows = static_cast<std::size_t>(rows);
    b.cols = static_cast<std::size_t>(cols);
    if (b.frames * b.rows * b.cols != j - i) return {};
    std::vector<char> seen(j - i, 0);
    const std::size_t sizes[3] = {b.frames, b.rows, b.cols};
    for (int a = 0; a < 3; ++a)
      if (axisIndex[a]) b.index[a].assign(sizes[a], kUnset);
    for (std::size_t k = i; k < j; ++k) {
      const TokenInfo& t = ids.tokens[to[k]];
      const std::size_t cell = (std::size_t(t.frame) * b.rows + t.row) * b.cols + t.col;
      if (seen[cell]) return {};
      seen[cell] = 1;
      const std::size_t at[3] = {std::size_t(t.frame), std::size_t(t.row), std::size_t(t.col)};
      for (int a = 0; a < 3; ++a) {
        if (!axisIndex[a]) continue;
        std::uint32_t& v = b.index[a][at[a]];
        if (v == kUnset) v = axisIndex[a][k];
        if (v != axisIndex[a][k]) return {};  // the coordinate depends on more than its own index
      }
    }
    blocks.push_back(std::move(b));
    i = j;
  }
  return blocks;
}

namespace {

// F_a of a block's frames, rows or cols (0 where the axis has no pairs).
inline double axisValue(const std::array<const double*, 3>& lut, const ProductBlock& b, int a,
                        std::size_t k) {
  return lut[a] ? lut[a][b.index[a][k]] : 0.0;
}

}  // namespace

double productBlocksSum(const std::vector<ProductBlock>& blocks,
                        const std::array<const double*, 3>& lut, double base) {
  double total = 0.0;
  for (const ProductBlock& b : blocks) {
    const std::size_t n[3] = {b.frames, b.rows, b.cols};
    double s = base * static_cast<double>(b.frames * b.rows * b.cols);
    for (int a = 0; a < 3; ++a) {
      double axis = 0.0;
      for (std::size_t k = 0; k < n[a]; ++k) axis += axisValue(lut, b, a, k);
      s += axis * static_cast<double>(n[0] * n[1] * n[2] / n[a]);
    }
    total += s;
  }
  return total;
}

double productBlocksAbsDeviation(const std::vector<ProductBlock>& blocks,
                                 const std::array<const double*, 3>& lut, double base, double mean,
                                 std::vector<double>& scratch) {
  double dev = 0.0;
  const double shift = mean - base;
  for (const ProductBlock& b : blocks) {
    const std::size_t cells = b.rows * b.cols;
    scratch.resize(2 * cells + 1);
    double* z = scratch.data();
    for (std::size_t r = 0; r < b.rows; ++r) {
      const double x = axisValue(lut, b, 1, r);
      for (std::size_t c = 0; c < b.cols; ++c) z[r * b.cols + c] = x + axisValue(lut, b, 2, c);
    }
    if (b.frames < kSortedFrames) {
      // Token by token: |F_t + (F_h + F_w) - (mean - base)|.
      for (std::size_t k = 0; k < b.frames; ++k) {
        const double tk = axisValue(lut, b, 0, k) - shift;
        double s = 0.0;
#pragma omp simd reduction(+ : s)
        for (std::size_t i = 0; i < cells; ++i) s += std::abs(tk + z[i]);
        dev += s;
      }
      continue;
    }
    // Sorted: for frame k the cells with z > tau = shift - F_t(k) add z - tau, the others
    // tau - z; with prefix sums P of the sorted z that is (P[n] - P[i] - tau (n - i)) +
    // (tau i - P[i]), i the first cell above tau.
    // Sorted and shifted by their median, so the prefix sums and tau i stay small where the
    // sums cancel (equal z give exact zeros).
    std::sort(z, z + cells);
    const double median = z[cells / 2];
    for (std::size_t i = 0; i < cells; ++i) z[i] -= median;
    double* prefix = z + cells;
    prefix[0] = 0.0;
    for (std::size_t i = 0; i < cells; ++i) prefix[i + 1] = prefix[i] + z[i];
    const double all = prefix[cells];
    for (std::size_t k = 0; k < b.frames; ++k) {
      const double tau = (shift - axisValue(lut, b, 0, k)) - median;
      const std::size_t i = static_cast<std::size_t>(std::upper_bound(z, z + cells, tau) - z);
      const double below = tau * static_cast<double>(i) - prefix[i];
      const double above = (all - prefix[i]) - tau * static_cast<double>(cells - i);
      dev += below + above;
    }
  }
  return dev;
}

}  // namespace ropescope::detail
