// Prototype PTD kernels used to show what core's perTokenDistance could reach: the diagonal
// expansion (one FMA per visual token before the square root) with AVX-512, exact or rsqrt-based.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <thread>
#include <vector>

#include "ropescope/position_ids.h"

namespace ropescope::bench {

// Visual tokens prepared for the expansion about the block centre C (mid-range per axis) and
// c = mean(C): for a text id (p,p,p), d^2 = a(p) + r_i + b(p) * s_i with
//   u_i = v_i - C, s_i = sum(u_i), r_i = |u_i|^2 + 2 sum_k (C_k - c) u_ik,
//   a(p) = sum_k (p - C_k)^2, b(p) = -2 (p - c).
// The terms stay of the size of the distances themselves, so there is no catastrophic
// cancellation far from the block.
// With dedupe, tokens with bitwise-equal (s_i, r_i) (hence equal distances to every text token,
// e.g. (r, c) and (c, r) of a square grid) are kept once with their multiplicity in w.
struct PreparedVisual {
  std::vector<double> s, r;  // padded to a multiple of 8 with copies of the last token
  std::vector<double> w;     // multiplicities (dedupe only); 0 for the padding
  std::size_t count = 0;     // visual tokens, duplicates included
  double centre[3] = {0, 0, 0};
  double centreMean = 0;
};

struct PrototypeResult {
  double ptd = 0;
  std::vector<double> perText, meanDistance;
};

enum class SqrtKind { Exact, Rsqrt };

inline PreparedVisual prepareVisual(const PositionIds& ids, bool dedupe = false) {
  PreparedVisual pv;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids.tokens[i].modality == Modality::Text) continue;
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], ids.ids[i][k]);
      hi[k] = std::max(hi[k], ids.ids[i][k]);
    }
    ++pv.count;
  }
  if (pv.count == 0) return pv;
  for (int k = 0; k < 3; ++k) pv.centre[k] = 0.5 * (lo[k] + hi[k]);
  pv.centreMean = (pv.centre[0] + pv.centre[1] + pv.centre[2]) / 3.0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids.tokens[i].modality == Modality::Text) continue;
    double s = 0, r = 0;
    for (int k = 0; k < 3; ++k) {
      const double u = ids.ids[i][k] - pv.centre[k];
      s += u;
      r += u * u + 2.0 * (pv.centre[k] - pv.centreMean) * u;
    }
    pv.s.push_back(s);
    pv.r.push_back(r);
  }
  if (dedupe) {
    std::vector<std::pair<double, double>> sr(pv.s.size());
    for (std::size_t i = 0; i < sr.size(); ++i) sr[i] = {pv.s[i], pv.r[i]};
    std::sort(sr.begin(), sr.end());
    pv.s.clear();
    pv.r.clear();
    for (std::size_t i = 0; i < sr.size(); ++i) {
      if (i > 0 && sr[i] == sr[i - 1]) {
        pv.w.back() += 1.0;
        continue;
      }
      pv.s.push_back(sr[i].first);
      pv.r.push_back(sr[i].second);
      pv.w.push_back(1.0);
    }
  }
  while (pv.s.size() % 8 != 0) {
    pv.s.push_back(pv.s.back());
    pv.r.push_back(pv.r.back());
    if (dedupe) pv.w.push_back(0.0);
  }
  return pv;
}

namespace detail {

// Lambdas do not inherit target attributes, so the kernels sit in a target region instead.
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,fma")

inline __m512d sqrtRsqrt(__m512d x) {
  // Goldschmidt from the 14-bit estimate: two steps give ~2^-56 relative error.
  x = _mm512_max_pd(x, _mm512_set1_pd(1e-300));
  const __m512d y0 = _mm512_rsqrt14_pd(x);
  __m512d g = _mm512_mul_pd(x, y0);
  __m512d h = _mm512_mul_pd(_mm512_set1_pd(0.5), y0);
  __m512d e = _mm512_fnmadd_pd(g, h, _mm512_set1_pd(0.5));
  g = _mm512_fmadd_pd(g, e, g);
  h = _mm512_fmadd_pd(h, e, h);
  const __m512d res = _mm512_fnmadd_pd(g, g, x);
  return _mm512_fmadd_pd(h, res, g);
}

// MAD and mean of the distances from text id (p,p,p) to every visual token; buf holds them.
template <SqrtKind K, bool Weighted>
inline void textRow(const PreparedVisual& pv, double p, double* buf, double& mean, double& mad) {
  double a = 0;
  for (double c : pv.centre) a += (p - c) * (p - c);
  const __m512d av = _mm512_set1_pd(a), bv = _mm512_set1_pd(-2.0 * (p - pv.centreMean));
  // n: real entries (padding beyond it); pv.count: visual tokens (differs with dedupe).
  const std::size_t padded = pv.s.size(), n = Weighted ? padded : pv.count;
  const double* s = pv.s.data();
  const double* r = pv.r.data();
  __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
  auto dist = [&](std::size_t i) {
    __m512d d2 =
        _mm512_fmadd_pd(bv, _mm512_loadu_pd(s + i), _mm512_add_pd(av, _mm512_loadu_pd(r + i)));
    d2 = _mm512_max_pd(d2, _mm512_setzero_pd());
    const __m512d d = K == SqrtKind::Exact ? _mm512_sqrt_pd(d2) : sqrtRsqrt(d2);
    _mm512_storeu_pd(buf + i, d);
    return d;
  };
  const double* w = pv.w.data();
  auto add = [&](__m512d acc, __m512d v, std::size_t i) {
    return Weighted ? _mm512_fmadd_pd(_mm512_loadu_pd(w + i), v, acc) : _mm512_add_pd(acc, v);
  };
  std::size_t i = 0;
  for (; i + 16 <= padded; i += 16) {
    acc0 = add(acc0, dist(i), i);
    acc1 = add(acc1, dist(i + 8), i + 8);
  }
  for (; i < padded; i += 8) acc0 = add(acc0, dist(i), i);
  double total = _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
  if (!Weighted)
    for (std::size_t j = n; j < padded; ++j) total -= buf[j];  // padding copies
  mean = total / static_cast<double>(pv.count);
  const __m512d mv = _mm512_set1_pd(mean);
  auto dev = [&](std::size_t i) {
    return _mm512_abs_pd(_mm512_sub_pd(_mm512_loadu_pd(buf + i), mv));
  };
  __m512d dev0 = _mm512_setzero_pd(), dev1 = _mm512_setzero_pd();
  for (i = 0; i + 16 <= padded; i += 16) {
    dev0 = add(dev0, dev(i), i);
    dev1 = add(dev1, dev(i + 8), i + 8);
  }
  for (; i < padded; i += 8) dev0 = add(dev0, dev(i), i);
  double devSum = _mm512_reduce_add_pd(_mm512_add_pd(dev0, dev1));
  if (!Weighted)
    for (std::size_t j = n; j < padded; ++j) devSum -= std::abs(buf[j] - mean);
  mad = devSum / static_cast<double>(pv.count);
}

#pragma GCC pop_options

}  // namespace detail

// PTD of ids whose text tokens lie on the diagonal (every design's text does). threads >= 1.
// Dedupe: distinct (s_i, r_i) only, weighted by multiplicity (same distances, fewer roots).
template <SqrtKind K, bool Dedupe = false>
PrototypeResult prototypePtd(const PositionIds& ids, int threads) {
  const PreparedVisual pv = prepareVisual(ids, Dedupe);
  std::vector<double> textP;
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids.tokens[i].modality == Modality::Text) textP.push_back(ids.ids[i][0]);
  PrototypeResult res;
  res.perText.assign(textP.size(), 0.0);
  res.meanDistance.assign(textP.size(), 0.0);
  if (pv.count == 0 || textP.empty()) return res;
  auto work = [&](std::size_t begin, std::size_t end) {
    std::vector<double> buf(pv.s.size());
    for (std::size_t t = begin; t < end; ++t)
      detail::textRow<K, Dedupe>(pv, textP[t], buf.data(), res.meanDistance[t], res.perText[t]);
  };
  const std::size_t nt = textP.size();
  const int n = std::max(1, threads);
  std::vector<std::thread> pool;
  for (int k = 1; k < n; ++k) pool.emplace_back(work, nt * k / n, nt * (k + 1) / n);
  work(0, nt / n);
  for (auto& th : pool) th.join();
  double total = 0;
  for (double v : res.perText) total += v;
  res.ptd = total / static_cast<double>(nt);
  return res;
}

}  // namespace ropescope::bench
