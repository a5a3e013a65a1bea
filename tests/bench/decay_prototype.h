// Prototype decay-curve kernel for comparison with core's decayCurve: the same rotation
// recurrence, written with AVX-512 vectors and anchored with one exact cos/sin per pair and anchor.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace ropescope::bench {

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,fma")

// U(r) for r in [first, first + 8 * blocks): lanes are 8 consecutive distances; pair p's phasor
// is rotated by e^{i 8 omega_p} per block. Anchor: e^{i first omega} (exact cos/sin, one pair per
// pair) times the lane offsets e^{i l omega} computed once.
inline void decayBlocks(const double* omega, const double* laneCos, const double* laneSin, int n,
                        long first, long blocks, double* out) {
  // Plain doubles (8 per pair): std::vector<__m512d> is not 64-byte aligned here.
  std::vector<double> zr(8 * n), zi(8 * n), cr(n), ci(n);
  for (int p = 0; p < n; ++p) {
    const double a = static_cast<double>(first) * omega[p];
    const double ar = std::cos(a), ai = std::sin(a);
    for (int l = 0; l < 8; ++l) {
      zr[8 * p + l] = ar * laneCos[8 * p + l] - ai * laneSin[8 * p + l];
      zi[8 * p + l] = ar * laneSin[8 * p + l] + ai * laneCos[8 * p + l];
    }
    cr[p] = std::cos(8.0 * omega[p]);
    ci[p] = std::sin(8.0 * omega[p]);
  }
  const __m512d inv = _mm512_set1_pd(1.0 / n);
  for (long b = 0; b < blocks; ++b) {
    __m512d sr = _mm512_setzero_pd(), si = _mm512_setzero_pd(), acc = _mm512_setzero_pd();
    for (int p = 0; p < n; ++p) {
      const __m512d r = _mm512_loadu_pd(&zr[8 * p]), i = _mm512_loadu_pd(&zi[8 * p]);
      const __m512d c = _mm512_set1_pd(cr[p]), s = _mm512_set1_pd(ci[p]);
      sr = _mm512_add_pd(sr, r);
      si = _mm512_add_pd(si, i);
      acc = _mm512_add_pd(acc, _mm512_sqrt_pd(_mm512_fmadd_pd(sr, sr, _mm512_mul_pd(si, si))));
      _mm512_storeu_pd(&zr[8 * p], _mm512_fmsub_pd(r, c, _mm512_mul_pd(i, s)));
      _mm512_storeu_pd(&zi[8 * p], _mm512_fmadd_pd(r, s, _mm512_mul_pd(i, c)));
    }
    _mm512_storeu_pd(out + b * 8, _mm512_mul_pd(acc, inv));
  }
}

#pragma GCC pop_options

// Full-form curve along a direction whose per-pair rates are omega; anchored every `anchor`
// distances (a multiple of 8). The last count % 8 distances use the exact sums.
inline std::vector<double> prototypeDecayCurve(const std::vector<double>& omega, int maxDistance,
                                               int anchor, int threads) {
  const int n = static_cast<int>(omega.size());
  const long count = static_cast<long>(maxDistance) + 1;
  std::vector<double> out(static_cast<std::size_t>(count));
  const long fullBlocks = count / 8, perAnchor = anchor / 8;
  const long anchors = (fullBlocks + perAnchor - 1) / perAnchor;
  std::vector<double> laneCos(8 * n), laneSin(8 * n);  // e^{i l omega_p}, l = 0..7, once
  for (int p = 0; p < n; ++p)
    for (int l = 0; l < 8; ++l) {
      laneCos[8 * p + l] = std::cos(l * omega[p]);
      laneSin[8 * p + l] = std::sin(l * omega[p]);
    }
  auto work = [&](long a0, long a1) {
    for (long a = a0; a < a1; ++a) {
      const long b0 = a * perAnchor;
      decayBlocks(omega.data(), laneCos.data(), laneSin.data(), n, b0 * 8,
                  std::min(perAnchor, fullBlocks - b0), out.data() + b0 * 8);
    }
  };
  const int nt = std::max(1, threads);
  std::vector<std::thread> pool;
  for (int k = 1; k < nt; ++k) pool.emplace_back(work, anchors * k / nt, anchors * (k + 1) / nt);
  work(0, anchors / nt);
  for (auto& th : pool) th.join();
  for (long r = fullBlocks * 8; r < count; ++r) {
    double re = 0, im = 0, total = 0;
    for (int p = 0; p < n; ++p) {
      re += std::cos(static_cast<double>(r) * omega[p]);
      im += std::sin(static_cast<double>(r) * omega[p]);
      total += std::hypot(re, im);
    }
    out[r] = total / n;
  }
  return out;
}

}  // namespace ropescope::bench
