// Prototype bias-spread kernel for integer ids (M-RoPE and friends), for comparison with core's
// biasSpread: the same per-axis tables, with the per-token loops vectorised (gathers, reductions).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope::bench {

struct BiasPrototypeResult {
  bool handled = false;  // false when an id is not an integer (core's GEMM path applies)
  double spread = 0;
  std::vector<double> perText, meanBias;
};

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,fma")

// b_i = L0[i0[i]] + L1[i1[i]] + L2[i2[i]] (tables already divided by n); returns the MAD and
// writes the mean. buf receives b.
inline double gatherMad(const double* l0, const double* l1, const double* l2,
                        const std::int32_t* i0, const std::int32_t* i1, const std::int32_t* i2,
                        std::size_t n, double* buf, double* meanOut) {
  double sum = 0;
#pragma omp simd reduction(+ : sum)
  for (std::size_t i = 0; i < n; ++i) {
    const double b = l0[i0[i]] + l1[i1[i]] + l2[i2[i]];
    buf[i] = b;
    sum += b;
  }
  const double mean = sum / static_cast<double>(n);
  double dev = 0;
#pragma omp simd reduction(+ : dev)
  for (std::size_t i = 0; i < n; ++i) dev += std::abs(buf[i] - mean);
  *meanOut = mean;
  return dev / static_cast<double>(n);
}

#pragma GCC pop_options

inline BiasPrototypeResult prototypeBiasSpread(const PositionIds& ids, const PairTable& pairs,
                                               int threads) {
  BiasPrototypeResult r;
  std::vector<double> textP;
  std::vector<std::size_t> vis;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Id3& id = ids.ids[i];
    const bool integral =
        std::all_of(id.begin(), id.end(), [](double v) { return v == std::floor(v); });
    if (!integral) return r;
    if (ids.tokens[i].modality == Modality::Text) {
      if (id[0] != id[1] || id[1] != id[2]) return r;
      textP.push_back(id[0]);
    } else {
      vis.push_back(i);
    }
  }
  r.handled = true;
  if (textP.empty() || vis.empty()) return r;
  const double n = pairs.size();
  const auto [pLo, pHi] = std::minmax_element(textP.begin(), textP.end());
  // Per axis: distinct values, index of each visual token, F_a(x)/n over the integer range of x.
  struct Axis {
    std::vector<double> values, byDiff;
    std::vector<std::int32_t> index;
    long lo = 0;
  } axes[3];
  double constant = 0;
  for (int p = 0; p < pairs.size(); ++p) constant += pairs.axis[p] == ropescope::Axis::None;
  for (int a = 0; a < 3; ++a) {
    Axis& ax = axes[a];
    for (std::size_t v : vis) ax.values.push_back(ids.ids[v][a]);
    std::sort(ax.values.begin(), ax.values.end());
    ax.values.erase(std::unique(ax.values.begin(), ax.values.end()), ax.values.end());
    for (std::size_t v : vis)
      ax.index.push_back(static_cast<std::int32_t>(
          std::lower_bound(ax.values.begin(), ax.values.end(), ids.ids[v][a]) - ax.values.begin()));
    ax.lo = static_cast<long>(*pLo - ax.values.back());
    const long hi = static_cast<long>(*pHi - ax.values.front());
    ax.byDiff.assign(static_cast<std::size_t>(hi - ax.lo + 1), a == 0 ? constant / n : 0.0);
    for (long x = ax.lo; x <= hi; ++x) {
      double s = 0;
      for (int p = 0; p < pairs.size(); ++p)
        if (static_cast<int>(pairs.axis[p]) == a)
          s += std::cos(pairs.theta[p] * static_cast<double>(x));
      ax.byDiff[x - ax.lo] += s / n;
    }
  }
  r.perText.resize(textP.size());
  r.meanBias.resize(textP.size());
  auto work = [&](std::size_t begin, std::size_t end) {
    std::vector<double> lut[3], buf(vis.size());
    for (std::size_t t = begin; t < end; ++t) {
      const long p = static_cast<long>(textP[t]);
      for (int a = 0; a < 3; ++a) {
        const Axis& ax = axes[a];
        lut[a].resize(ax.values.size());
        for (std::size_t k = 0; k < ax.values.size(); ++k)
          lut[a][k] = ax.byDiff[p - static_cast<long>(ax.values[k]) - ax.lo];
      }
      r.perText[t] = gatherMad(lut[0].data(), lut[1].data(), lut[2].data(), axes[0].index.data(),
                               axes[1].index.data(), axes[2].index.data(), vis.size(), buf.data(),
                               &r.meanBias[t]);
    }
  };
  const std::size_t nt = textP.size();
  const int k = std::max(1, threads);
  std::vector<std::thread> pool;
  for (int j = 1; j < k; ++j) pool.emplace_back(work, nt * j / k, nt * (j + 1) / k);
  work(0, nt / k);
  for (auto& th : pool) th.join();
  double total = 0;
  for (double v : r.perText) total += v;
  r.spread = total / static_cast<double>(nt);
  return r;
}

}  // namespace ropescope::bench
