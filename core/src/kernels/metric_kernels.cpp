// The metric kernels' bodies are written once as always-inline templates and instantiated in
// three wrappers with different target attributes: GCC inlines a baseline body into a wider
// target, so each copy is vectorised for its own instruction set. target_clones would do the same
// for one function but could not be capped at run time for testing the lower copies. The loops
// vectorise because core is built with -fno-math-errno (sqrt has no errno side effect) and the
// sums are declared as simd reductions (-fopenmp-simd); the reassociation that allows changes the
// last bits only, far below the 1e-9 the results promise.
#include "metric_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ROPESCOPE_X86 1
#endif

namespace ropescope::detail {

namespace {

#define ROPESCOPE_INLINE [[gnu::always_inline]] inline

ROPESCOPE_INLINE double distanceSumBody(const double* a, const double* b, const double* w,
                                        std::size_t n, double q, double c, double shift,
                                        double* out) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) {
    // Rounding can leave a tiny negative d^2 for a token on the text diagonal.
    const double d = std::sqrt(std::max(std::fma(a[i], q, b[i]) + c, 0.0));
    out[i] = d;
    s += w[i] * (d - shift);
  }
  return s;
}

ROPESCOPE_INLINE double lineDistanceSumBody(const double* u, const double* w, std::size_t n,
                                            double q, double shift, double* out) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::abs(q - u[i]);
    out[i] = d;
    s += w[i] * (d - shift);
  }
  return s;
}

ROPESCOPE_INLINE double weightedAbsDeviationBody(const double* d, const double* w, std::size_t n,
                                                 double mean) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += w[i] * std::abs(d[i] - mean);
  return s;
}

ROPESCOPE_INLINE double absDeviationBody(const double* d, std::size_t n, double mean) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += std::abs(d[i] - mean);
  return s;
}

ROPESCOPE_INLINE double gatherSumBody(const double* const* lut, const std::uint32_t* const* idx,
                                      int axes, double base, std::size_t n, double* out) {
  double s = 0.0;
  if (axes == 3) {  // every M-RoPE-like plan: one fused pass, three gathers per token
    const double *l0 = lut[0], *l1 = lut[1], *l2 = lut[2];
    const std::uint32_t *i0 = idx[0], *i1 = idx[1], *i2 = idx[2];
#pragma omp simd reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) {
      const double v = base + l0[i0[i]] + l1[i1[i]] + l2[i2[i]];
      out[i] = v;
      s += v;
    }
    return s;
  }
  std::fill(out, out + n, base);
  for (int k = 0; k < axes; ++k) {
    const double* l = lut[k];
    const std::uint32_t* ix = idx[k];
#pragma omp simd
    for (std::size_t i = 0; i < n; ++i) out[i] += l[ix[i]];
  }
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += out[i];
  return s;
}

ROPESCOPE_INLINE double runSumBody(const double* const* lut, const std::uint32_t* const* idx,
                                   int axes, double base, const std::uint32_t* start,
                                   std::size_t runs, double* out) {
  double s = 0.0;
  const int last = axes - 1;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::uint32_t b = start[r], e = start[r + 1];
    double v = base;  // the same left-to-right order as gatherSum
    for (int k = 0; k < last; ++k) v += lut[k][idx[k][b]];
    const double* l = lut[last] + idx[last][b];
    double* o = out + b;
    double rs = 0.0;
#pragma omp simd reduction(+ : rs)
    for (std::uint32_t i = 0; i < e - b; ++i) {
      const double x = v + l[i];
      o[i] = x;
      rs += x;
    }
    s += rs;
  }
  return s;
}

ROPESCOPE_INLINE void seriesSumsBody(const double* x, std::size_t n, double x0, const double* coef,
                                     int terms, double m, double maxA, double maxB, double far,
                                     double* out) {
  const double sqrtM = std::sqrt(m);
  // Horner's rule for all positions at once, one coefficient at a time: the positions'
  // recurrences are independent, so the multiply-adds do not wait on each other.
  constexpr std::size_t kLanes = 64;
  double z[kLanes], s[kLanes];
  for (std::size_t i0 = 0; i0 < n; i0 += kLanes) {
    const std::size_t len = std::min(kLanes, n - i0);
#pragma omp simd
    for (std::size_t i = 0; i < len; ++i) {
      z[i] = 1.0 / (x[i0 + i] - x0);
      s[i] = coef[terms - 1];
    }
    for (int p = terms - 2; p >= 0; --p) {
      const double c = coef[p];
#pragma omp simd
      for (std::size_t i = 0; i < len; ++i) s[i] = s[i] * z[i] + c;
    }
#pragma omp simd
    for (std::size_t i = 0; i < len; ++i) {
      const double u = x[i0 + i] - x0, au = std::abs(u);
      const bool ok = au > 0.0 && 2.0 * au * maxA + maxB <= far * m * u * u;
      out[i0 + i] = ok ? sqrtM * au * s[i] : std::numeric_limits<double>::quiet_NaN();
    }
  }
}

ROPESCOPE_INLINE void chunkDeviationBody(const double* s, const double* x, const double* mean,
                                         std::size_t n, double x0, double m, double gammaSum,
                                         double sigma, double radius, double count, double* dev,
                                         unsigned char* straddle) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    const double u = x[i] - x0, dc2 = m * u * u - 2.0 * u * gammaSum + sigma;
    const double hi = mean[i] + radius, lo = mean[i] - radius;
    const bool above = dc2 >= hi * hi, below = lo >= 0.0 && dc2 <= lo * lo;
    const double part = count * mean[i] - s[i];
    dev[i] += above ? -part : below ? part : 0.0;
    straddle[i] = !(above || below);
  }
}

// Eight lanes are eight consecutive distances; each pair's phasors are rotated in place.
ROPESCOPE_INLINE void decayBlocksBody(double* zr, double* zi, const double* rc, const double* rs,
                                      int n, long blocks, double* out) {
  for (long blk = 0; blk < blocks; ++blk) {
    double sr[8] = {}, si[8] = {}, acc[8] = {};
    for (int p = 0; p < n; ++p) {
      double* __restrict r = zr + 8 * p;
      double* __restrict im = zi + 8 * p;
      const double c = rc[p], s = rs[p];
#pragma omp simd
      for (int l = 0; l < 8; ++l) {
        const double x = r[l], y = im[l];
        sr[l] += x;
        si[l] += y;
        acc[l] += std::sqrt(sr[l] * sr[l] + si[l] * si[l]);
        r[l] = x * c - y * s;
        im[l] = x * s + y * c;
      }
    }
    for (int l = 0; l < 8; ++l) out[blk * 8 + l] = acc[l] / n;
  }
}

#define ROPESCOPE_DEFINE_KERNELS(suffix, attr)                                                     \
  attr double distanceSum_##suffix(const double* a, const double* b, const double* w,              \
                                   std::size_t n, double q, double c, double shift, double* out) { \
    return distanceSumBody(a, b, w, n, q, c, shift, out);                                          \
  }                                                                                                \
  attr double lineDistanceSum_##suffix(const double* u, const double* w, std::size_t n, double q,  \
                                       double shift, double* out) {                                \
    return lineDistanceSumBody(u, w, n, q, shift, out);                                            \
  }                                                                                                \
  attr double weightedAbsDeviation_##suffix(const double* d, const double* w, std::size_t n,       \
                                            double mean) {                                         \
    return weightedAbsDeviationBody(d, w, n, mean);                                                \
  }                                                                                                \
  attr double absDeviation_##suffix(const double* d, std::size_t n, double mean) {                 \
    return absDeviationBody(d, n, mean);                                                           \
  }                                                                                                \
  attr double runSum_##suffix(const double* const* lut, const std::uint32_t* const* idx, int axes, \
                              double base, const std::uint32_t* start, std::size_t runs,           \
                              double* out) {                                                       \
    return runSumBody(lut, idx, axes, base, start, runs, out);                                     \
  }                                                                                                \
  attr double gatherSum_##suffix(const double* const* lut, const std::uint32_t* const* idx,        \
                                 int axes, double base, std::size_t n, double* out) {              \
    return gatherSumBody(lut, idx, axes, base, n, out);                                            \
  }                                                                                                \
  attr void seriesSums_##suffix(const double* x, std::size_t n, double x0, const double* coef,     \
                                int terms, double m, double maxA, double maxB, double far,         \
                                double* out) {                                                     \
    seriesSumsBody(x, n, x0, coef, terms, m, maxA, maxB, far, out);                                \
  }                                                                                                \
  attr void chunkDeviation_##suffix(const double* s, const double* x, const double* mean,          \
                                    std::size_t n, double x0, double m, double gammaSum,           \
                                    double sigma, double radius, double count, double* dev,        \
                                    unsigned char* straddle) {                                     \
    chunkDeviationBody(s, x, mean, n, x0, m, gammaSum, sigma, radius, count, dev, straddle);       \
  }                                                                                                \
  attr void decayBlocks_##suffix(double* zr, double* zi, const double* rc, const double* rs,       \
                                 int n, long blocks, double* out) {                                \
    decayBlocksBody(zr, zi, rc, rs, n, blocks, out);                                               \
  }

ROPESCOPE_DEFINE_KERNELS(baseline, )

#ifdef ROPESCOPE_X86
ROPESCOPE_DEFINE_KERNELS(avx2, __attribute__((target("avx2,fma"))))
// GCC otherwise keeps auto-vectorised loops at 256 bits even where AVX-512 is allowed.
#if defined(__clang__)
#define ROPESCOPE_AVX512_LOOPS "avx512f,avx512dq,avx512vl,avx2,fma"
#else
#define ROPESCOPE_AVX512_LOOPS "avx512f,avx512dq,avx512vl,avx2,fma,prefer-vector-width=512"
#endif
ROPESCOPE_DEFINE_KERNELS(avx512, [[maybe_unused]] __attribute__((target(ROPESCOPE_AVX512_LOOPS))))

// Hand-written AVX-512 kernels (per-function target attributes: clang has no #pragma GCC target).
#define ROPESCOPE_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))

// GCC 12 reports the deliberately undefined pass-through operands of its own AVX-512 intrinsics
// (_mm512_undefined_pd) as uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// sqrt(x) from the 14-bit reciprocal square root estimate y0, one Goldschmidt step
// (g -> sqrt(x), h -> 1/(2 sqrt(x)); ~28 bits) and one correction of g with the exactly formed
// residual x - g^2 (~56 bits, i.e. within an ulp or two), at a fraction of vsqrtpd's latency and
// throughput. Lanes outside [2^-1000, 2^1000] (zero, subnormals, huge, infinity, NaN, negatives)
// take the exact root; with ClampNegative those lanes take sqrt(max(x, 0)) instead, which saves
// the clamp on the common path.
template <bool ClampNegative>
ROPESCOPE_AVX512 inline __m512d sqrtFromRsqrt(__m512d x) {
  const __m512d half = _mm512_set1_pd(0.5);
  const __mmask8 normal =
      _mm512_mask_cmp_pd_mask(_mm512_cmp_pd_mask(x, _mm512_set1_pd(0x1p-1000), _CMP_GE_OQ), x,
                              _mm512_set1_pd(0x1p1000), _CMP_LE_OQ);
  const __m512d y0 = _mm512_rsqrt14_pd(x);
  __m512d g = _mm512_mul_pd(x, y0);
  __m512d h = _mm512_mul_pd(half, y0);
  const __m512d e = _mm512_fnmadd_pd(g, h, half);
  g = _mm512_fmadd_pd(g, e, g);
  h = _mm512_fmadd_pd(h, e, h);
  const __m512d res = _mm512_fnmadd_pd(g, g, x);
  __m512d r = _mm512_fmadd_pd(h, res, g);
  // Rare (a token on the text diagonal at most): branch rather than always paying for the root.
  if (normal != 0xff)
    r = _mm512_mask_sqrt_pd(r, static_cast<__mmask8>(~normal),
                            ClampNegative ? _mm512_max_pd(x, _mm512_setzero_pd()) : x);
  return r;
}

ROPESCOPE_AVX512 double distanceSumRsqrt(const double* a, const double* b, const double* w,
                                         std::size_t n, double q, double c, double shift,
                                         double* out) {
  const __m512d qv = _mm512_set1_pd(q), cv = _mm512_set1_pd(c), zero = _mm512_setzero_pd();
  const __m512d sv = _mm512_set1_pd(shift);
  __m512d acc0 = zero, acc1 = zero;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512d d0 =
        _mm512_add_pd(_mm512_fmadd_pd(_mm512_loadu_pd(a + i), qv, _mm512_loadu_pd(b + i)), cv);
    __m512d d1 = _mm512_add_pd(
        _mm512_fmadd_pd(_mm512_loadu_pd(a + i + 8), qv, _mm512_loadu_pd(b + i + 8)), cv);
    d0 = sqrtFromRsqrt<true>(d0);
    d1 = sqrtFromRsqrt<true>(d1);
    _mm512_storeu_pd(out + i, d0);
    _mm512_storeu_pd(out + i + 8, d1);
    acc0 = _mm512_fmadd_pd(_mm512_loadu_pd(w + i), _mm512_sub_pd(d0, sv), acc0);
    acc1 = _mm512_fmadd_pd(_mm512_loadu_pd(w + i + 8), _mm512_sub_pd(d1, sv), acc1);
  }
  for (; i < n; i += 8) {  // masked tail: absent lanes load zeros and are not stored
    const __mmask8 m = n - i >= 8 ? 0xff : static_cast<__mmask8>((1u << (n - i)) - 1);
    __m512d d = _mm512_add_pd(
        _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, a + i), qv, _mm512_maskz_loadu_pd(m, b + i)), cv);
    d = sqrtFromRsqrt<true>(d);
    _mm512_mask_storeu_pd(out + i, m, d);
    acc0 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, w + i), _mm512_sub_pd(d, sv), acc0);
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
}

// The decay recurrence with one zmm register per quantity: the 8 lanes are the 8 distances. The
// root is vsqrtpd, correctly rounded, so U(0) is exactly (n + 1) / 2 (docs/math.md); a root from
// the rsqrt14 estimate saved under 0.5 ms per 100 000 distances and lost that.
ROPESCOPE_AVX512 void decayBlocksZmm(double* zr, double* zi, const double* rc, const double* rs,
                                     int n, long blocks, double* out) {
  const __m512d nv = _mm512_set1_pd(static_cast<double>(n));
  for (long blk = 0; blk < blocks; ++blk) {
    __m512d sr = _mm512_setzero_pd(), si = _mm512_setzero_pd(), acc = _mm512_setzero_pd();
    for (int p = 0; p < n; ++p) {
      const __m512d r = _mm512_loadu_pd(zr + 8 * p), im = _mm512_loadu_pd(zi + 8 * p);
      const __m512d c = _mm512_set1_pd(rc[p]), s = _mm512_set1_pd(rs[p]);
      sr = _mm512_add_pd(sr, r);
      si = _mm512_add_pd(si, im);
      acc = _mm512_add_pd(acc, _mm512_sqrt_pd(_mm512_fmadd_pd(sr, sr, _mm512_mul_pd(si, si))));
      _mm512_storeu_pd(zr + 8 * p, _mm512_fmsub_pd(r, c, _mm512_mul_pd(im, s)));
      _mm512_storeu_pd(zi + 8 * p, _mm512_fmadd_pd(r, s, _mm512_mul_pd(im, c)));
    }
    _mm512_storeu_pd(out + blk * 8, _mm512_div_pd(acc, nv));
  }
}

ROPESCOPE_AVX512 void rsqrtArray(const double* x, std::size_t n, double* out) {
  for (std::size_t i = 0; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? 0xff : static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_pd(out + i, m, sqrtFromRsqrt<false>(_mm512_maskz_loadu_pd(m, x + i)));
  }
}

#pragma GCC diagnostic pop
#endif

// Sums of cosines. glibc's libmvec exports one vector cosine per x86-64 vector ABI width
// (b: 2 lanes, d: 4 lanes AVX2, e: 8 lanes AVX-512); each lane is computed on its own, so a tail
// padded with anything gives its elements the bits they would get anywhere else. The argument,
// the cosine and the running sum stay in registers: no array of arguments or cosines is stored.
#ifdef ROPESCOPE_X86
extern "C" {
__m128d _ZGVbN2v_cos(__m128d);
__m128d _ZGVbN2v_sin(__m128d);
__attribute__((target("avx2,fma"))) __m256d _ZGVdN4v_cos(__m256d);
__attribute__((target("avx2,fma"))) __m256d _ZGVdN4v_sin(__m256d);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_cos(__m512d);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_sin(__m512d);
}

void cosineSums_baseline(const double* v, std::size_t n, const double* theta, std::size_t pairs,
                         double own, double divisor, double* out) {
  const __m128d o = _mm_set1_pd(own), d = _mm_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 2) {
    const bool two = n - i >= 2;
    const __m128d x = _mm_sub_pd(o, two ? _mm_loadu_pd(v + i) : _mm_set_sd(v[i]));
    __m128d acc = _mm_setzero_pd();
    for (std::size_t k = 0; k < pairs; ++k)
      acc = _mm_add_pd(acc, _ZGVbN2v_cos(_mm_mul_pd(_mm_set1_pd(theta[k]), x)));
    acc = _mm_div_pd(acc, d);
    if (two)
      _mm_storeu_pd(out + i, acc);
    else
      out[i] = _mm_cvtsd_f64(acc);
  }
}

__attribute__((target("avx2,fma"))) void cosineSums_avx2(const double* v, std::size_t n,
                                                         const double* theta, std::size_t pairs,
                                                         double own, double divisor, double* out) {
  const __m256d o = _mm256_set1_pd(own), d = _mm256_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 4) {
    const std::size_t len = std::min<std::size_t>(4, n - i);
    double lanes[4] = {0.0, 0.0, 0.0, 0.0};  // a tail's values, padded
    std::copy(v + i, v + i + len, lanes);
    const __m256d x = _mm256_sub_pd(o, _mm256_loadu_pd(lanes));
    __m256d acc = _mm256_setzero_pd();
    for (std::size_t k = 0; k < pairs; ++k)
      acc = _mm256_add_pd(acc, _ZGVdN4v_cos(_mm256_mul_pd(_mm256_set1_pd(theta[k]), x)));
    acc = _mm256_div_pd(acc, d);
    if (len == 4) {
      _mm256_storeu_pd(out + i, acc);
    } else {
      _mm256_storeu_pd(lanes, acc);
      std::copy(lanes, lanes + len, out + i);
    }
  }
}

ROPESCOPE_AVX512 void cosineSums_avx512(const double* v, std::size_t n, const double* theta,
                                        std::size_t pairs, double own, double divisor,
                                        double* out) {
  const __m512d o = _mm512_set1_pd(own), d = _mm512_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? 0xff : static_cast<__mmask8>((1u << (n - i)) - 1);
    const __m512d x = _mm512_sub_pd(o, _mm512_maskz_loadu_pd(m, v + i));
    __m512d acc = _mm512_setzero_pd();
    for (std::size_t k = 0; k < pairs; ++k)
      acc = _mm512_add_pd(acc, _ZGVeN8v_cos(_mm512_mul_pd(_mm512_set1_pd(theta[k]), x)));
    _mm512_mask_storeu_pd(out + i, m, _mm512_div_pd(acc, d));
  }
}

void trigTable_baseline(const double* v, std::size_t n, double theta, double divisor,
                        double* cosOut, double* sinOut) {
  const __m128d t = _mm_set1_pd(theta), d = _mm_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 2) {
    const bool two = n - i >= 2;
    const __m128d x = _mm_mul_pd(t, two ? _mm_loadu_pd(v + i) : _mm_set_sd(v[i]));
    const __m128d c = _mm_div_pd(_ZGVbN2v_cos(x), d), s = _mm_div_pd(_ZGVbN2v_sin(x), d);
    if (two) {
      _mm_storeu_pd(cosOut + i, c);
      _mm_storeu_pd(sinOut + i, s);
    } else {
      cosOut[i] = _mm_cvtsd_f64(c);
      sinOut[i] = _mm_cvtsd_f64(s);
    }
  }
}

__attribute__((target("avx2,fma"))) void trigTable_avx2(const double* v, std::size_t n,
                                                        double theta, double divisor,
                                                        double* cosOut, double* sinOut) {
  const __m256d t = _mm256_set1_pd(theta), d = _mm256_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 4) {
    const std::size_t len = std::min<std::size_t>(4, n - i);
    double lanes[4] = {0.0, 0.0, 0.0, 0.0}, sines[4];  // a tail's values, padded
    std::copy(v + i, v + i + len, lanes);
    const __m256d x = _mm256_mul_pd(t, _mm256_loadu_pd(lanes));
    const __m256d c = _mm256_div_pd(_ZGVdN4v_cos(x), d), s = _mm256_div_pd(_ZGVdN4v_sin(x), d);
    if (len == 4) {
      _mm256_storeu_pd(cosOut + i, c);
      _mm256_storeu_pd(sinOut + i, s);
    } else {
      _mm256_storeu_pd(lanes, c);
      _mm256_storeu_pd(sines, s);
      std::copy(lanes, lanes + len, cosOut + i);
      std::copy(sines, sines + len, sinOut + i);
    }
  }
}

ROPESCOPE_AVX512 void trigTable_avx512(const double* v, std::size_t n, double theta, double divisor,
                                       double* cosOut, double* sinOut) {
  const __m512d t = _mm512_set1_pd(theta), d = _mm512_set1_pd(divisor);
  for (std::size_t i = 0; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? 0xff : static_cast<__mmask8>((1u << (n - i)) - 1);
    const __m512d x = _mm512_mul_pd(t, _mm512_maskz_loadu_pd(m, v + i));
    _mm512_mask_storeu_pd(cosOut + i, m, _mm512_div_pd(_ZGVeN8v_cos(x), d));
    _mm512_mask_storeu_pd(sinOut + i, m, _mm512_div_pd(_ZGVeN8v_sin(x), d));
  }
}
#else
void cosineSums_baseline(const double* v, std::size_t n, const double* theta, std::size_t pairs,
                         double own, double divisor, double* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const double x = own - v[i];
    double acc = 0.0;
    for (std::size_t k = 0; k < pairs; ++k) acc += std::cos(theta[k] * x);
    out[i] = acc / divisor;
  }
}
void trigTable_baseline(const double* v, std::size_t n, double theta, double divisor,
                        double* cosOut, double* sinOut) {
  for (std::size_t i = 0; i < n; ++i) {
    cosOut[i] = std::cos(theta * v[i]) / divisor;
    sinOut[i] = std::sin(theta * v[i]) / divisor;
  }
}
#endif

#define ROPESCOPE_KERNEL_TABLE(name, suffix, distance, decay) \
  const MetricKernels name = {#suffix,                        \
                              distance,                       \
                              lineDistanceSum_##suffix,       \
                              weightedAbsDeviation_##suffix,  \
                              gatherSum_##suffix,             \
                              runSum_##suffix,                \
                              absDeviation_##suffix,          \
                              cosineSums_##suffix,            \
                              trigTable_##suffix,             \
                              seriesSums_##suffix,            \
                              chunkDeviation_##suffix,        \
                              decay}

ROPESCOPE_KERNEL_TABLE(kBaseline, baseline, distanceSum_baseline, decayBlocks_baseline);
#ifdef ROPESCOPE_X86
ROPESCOPE_KERNEL_TABLE(kAvx2, avx2, distanceSum_avx2, decayBlocks_avx2);
ROPESCOPE_KERNEL_TABLE(kAvx512, avx512, distanceSumRsqrt, decayBlocksZmm);

bool hasAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
         __builtin_cpu_supports("fma");
}

bool hasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

}  // namespace

const MetricKernels* metricKernelsFor(const char* isa) {
  const std::string name = isa;
  if (name == "baseline") return &kBaseline;
#ifdef ROPESCOPE_X86
  if (name == "avx2") return hasAvx2() ? &kAvx2 : nullptr;
  if (name == "avx512") return hasAvx512() ? &kAvx512 : nullptr;
#endif
  return nullptr;
}

const MetricKernels& metricKernels() {
  const char* cap = std::getenv("ROPESCOPE_CPU_ISA");
  const std::string limit = cap ? cap : "";
  if (limit != "avx2" && limit != "baseline")
    if (const MetricKernels* k = metricKernelsFor("avx512")) return *k;
  if (limit != "baseline")
    if (const MetricKernels* k = metricKernelsFor("avx2")) return *k;
  return kBaseline;
}

bool rsqrtSqrtAvx512(const double* x, std::size_t n, double* out) {
#ifdef ROPESCOPE_X86
  if (!hasAvx512()) return false;
  rsqrtArray(x, n, out);
  return true;
#else
  (void)x, (void)n, (void)out;
  return false;
#endif
}

}  // namespace ropescope::detail
