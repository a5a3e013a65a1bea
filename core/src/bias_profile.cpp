#include "ropescope/bias_profile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/metric_kernels.h"
#include "parallel.h"

namespace ropescope {

namespace {
// Distinct values per task of a profile's table (the threads' share of the work).
constexpr std::size_t kBlock = 1024;
}  // namespace

TokenAxisIndex tokenAxisIndex(const PositionIds& ids, const std::vector<std::size_t>& tokens,
                              int threads, std::array<bool, 4> axes) {
  TokenAxisIndex x;
  x.tokens = tokens.size();
  // One axis per task: each axis's sort is independent of the others. The coordinates are sorted
  // with their token's place, so each token's index comes from one pass over the sorted list (a
  // binary search per token mispredicts about one branch in two).
  detail::parallelFor(4, threads, [&](std::size_t first, std::size_t last) {
    std::vector<std::pair<double, std::uint32_t>> sorted(tokens.size());
    for (std::size_t a = first; a < last; ++a) {
      if (!axes[a]) continue;
      const Axis axis = kCoordinateAxes[a];
      for (std::size_t k = 0; k < tokens.size(); ++k) {
        const double c = axisCoordinate(axis, ids.ids[tokens[k]]);
        // NaN has no place in a sort (every reader of ids refuses it before this).
        if (std::isnan(c))
          throw std::invalid_argument("token axis index: token " + std::to_string(tokens[k]) +
                                      " has a NaN coordinate");
        sorted[k] = {c, static_cast<std::uint32_t>(k)};
      }
      std::sort(sorted.begin(), sorted.end());
      std::vector<double>& values = x.values[a];
      std::vector<std::uint32_t>& index = x.index[a];
      values.reserve(tokens.size());
      index.resize(tokens.size());
      for (const auto& [value, k] : sorted) {
        if (values.empty() || values.back() != value) values.push_back(value);
        index[k] = static_cast<std::uint32_t>(values.size() - 1);
      }
      values.shrink_to_fit();
    }
  });
  return x;
}

std::vector<double> biasProfile(const TokenAxisIndex& index, const PairTable& pairs,
                                const Id3& position, int threads) {
  const double n = pairs.size();
  const detail::MetricKernels& kern = detail::metricKernels();
  // Per axis with pairs: F[j] = (1/n) sum over its pairs of cos(theta (own - value_j)).
  std::array<std::vector<double>, 4> tables;
  const double* lut[4];
  const std::uint32_t* idx[4];
  int axes = 0;
  double constant = 0.0;  // NoPE pairs: cos 0 = 1 each
  for (int p = 0; p < pairs.size(); ++p)
    if (pairs.axis[p] == Axis::None) constant += 1.0;
  for (int a = 0; a < 4; ++a) {
    const Axis axis = kCoordinateAxes[a];
    std::vector<double> theta;
    for (int p = 0; p < pairs.size(); ++p)
      if (pairs.axis[p] == axis) theta.push_back(pairs.theta[p]);
    if (theta.empty()) continue;
    if (index.index[a].size() != index.tokens)
      throw std::invalid_argument("bias profile: axis " + std::to_string(a) +
                                  " has pairs but is not in the index");
    const std::vector<double>& values = index.values[a];
    const double own = axisCoordinate(axis, position);
    std::vector<double>& table = tables[a];
    table.resize(values.size());
    const std::size_t blocks = (values.size() + kBlock - 1) / kBlock;
    detail::parallelFor(blocks, threads, [&](std::size_t first, std::size_t last) {
      const std::size_t lo = first * kBlock, hi = std::min(last * kBlock, values.size());
      kern.cosineSums(values.data() + lo, hi - lo, theta.data(), theta.size(), own, n,
                      table.data() + lo);
    });
    lut[axes] = table.data();
    idx[axes] = index.index[a].data();
    ++axes;
  }
  std::vector<double> out(index.tokens);
  detail::parallelFor(index.tokens, threads, [&](std::size_t first, std::size_t last) {
    const double* l[4];
    const std::uint32_t* i[4];
    for (int a = 0; a < axes; ++a) {
      l[a] = lut[a];
      i[a] = idx[a] + first;
    }
    kern.gatherSum(l, i, axes, constant / n, last - first, out.data() + first);
  });
  return out;
}

}  // namespace ropescope
