// The fused bias product and absolute-deviation sum (see bias_absdev.h). The AVX-512 body is
// compiled for that target by attribute and only called on CPUs that report it.
#include "bias_absdev.h"

#include <cstdlib>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ropescope::detail {

std::vector<double> packBiasPanels(const double* a, std::ptrdiff_t visual, std::ptrdiff_t inner) {
  const auto v = static_cast<std::size_t>(visual), n = static_cast<std::size_t>(inner);
  std::vector<double> out(biasPanelSize(v, n), 0.0);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < v; ++i) out[biasPanelIndex(i, k, n)] = a[k * v + i];
  return out;
}

#if defined(__x86_64__)
namespace {

#define ROPESCOPE_AVX512 __attribute__((target("avx512f,avx512dq,fma")))

// One panel (24 rows) against 8 columns: acc = panel x X(:, j0..j0+7), then
// colAbs[c] += |acc(:, c) - shift[c]| lane-wise over the rows that exist (mask).
ROPESCOPE_AVX512 inline void block(const double* panel, std::ptrdiff_t inner, const double* x,
                                   const double* shift, const __mmask8 mask[3],
                                   __m512d colAbs[kBiasPanelCols]) {
  __m512d acc[kBiasPanelCols][3];
#pragma GCC unroll 8
  for (int c = 0; c < kBiasPanelCols; ++c)
    for (int r = 0; r < 3; ++r) acc[c][r] = _mm512_setzero_pd();
  for (std::ptrdiff_t k = 0; k < inner; ++k) {
    const double* row = panel + k * kBiasPanelRows;
    const __m512d a0 = _mm512_loadu_pd(row), a1 = _mm512_loadu_pd(row + 8),
                  a2 = _mm512_loadu_pd(row + 16);
#pragma GCC unroll 8
    for (int c = 0; c < kBiasPanelCols; ++c) {
      const __m512d b = _mm512_set1_pd(x[c * inner + k]);
      acc[c][0] = _mm512_fmadd_pd(a0, b, acc[c][0]);
      acc[c][1] = _mm512_fmadd_pd(a1, b, acc[c][1]);
      acc[c][2] = _mm512_fmadd_pd(a2, b, acc[c][2]);
    }
  }
  const __m512d sign = _mm512_set1_pd(-0.0);
#pragma GCC unroll 8
  for (int c = 0; c < kBiasPanelCols; ++c) {
    const __m512d s = _mm512_set1_pd(shift[c]);
    __m512d sum = colAbs[c];
    for (int r = 0; r < 3; ++r)
      sum = _mm512_mask_add_pd(sum, mask[r], sum,
                               _mm512_andnot_pd(sign, _mm512_sub_pd(acc[c][r], s)));
    colAbs[c] = sum;
  }
}

ROPESCOPE_AVX512 void absDevAvx512(const double* panels, std::ptrdiff_t visual,
                                   std::ptrdiff_t inner, const double* x, std::ptrdiff_t cols,
                                   const double* shift, double* out) {
  const std::ptrdiff_t nPanels = (visual + kBiasPanelRows - 1) / kBiasPanelRows;
  const std::ptrdiff_t groups = (cols + kBiasPanelCols - 1) / kBiasPanelCols;
  for (std::ptrdiff_t g = 0; g < groups; ++g) {
    const std::ptrdiff_t j0 = g * kBiasPanelCols;
    double sh[kBiasPanelCols] = {};
    for (std::ptrdiff_t c = 0; c < kBiasPanelCols && j0 + c < cols; ++c) sh[c] = shift[j0 + c];
    __m512d colAbs[kBiasPanelCols];
    for (auto& v : colAbs) v = _mm512_setzero_pd();
    for (std::ptrdiff_t p = 0; p < nPanels; ++p) {
      __mmask8 mask[3];
      for (int r = 0; r < 3; ++r) {
        const std::ptrdiff_t left = visual - p * kBiasPanelRows - 8 * r;
        mask[r] = left >= 8 ? __mmask8(0xff) : left <= 0 ? __mmask8(0) : __mmask8((1u << left) - 1);
      }
      block(panels + p * inner * kBiasPanelRows, inner, x + j0 * inner, sh, mask, colAbs);
    }
    for (std::ptrdiff_t c = 0; c < kBiasPanelCols && j0 + c < cols; ++c) {
      double lanes[8];
      _mm512_storeu_pd(lanes, colAbs[c]);
      double sum = 0.0;
      for (double v : lanes) sum += v;
      out[j0 + c] = sum;
    }
  }
}

}  // namespace
#endif

BiasAbsDevFn biasAbsDev() {
#if defined(__x86_64__)
  const char* cap = std::getenv("ROPESCOPE_CPU_ISA");
  const std::string limit = cap ? cap : "";
  if (limit == "avx2" || limit == "baseline") return nullptr;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("fma"))
    return absDevAvx512;
#endif
  return nullptr;
}

}  // namespace ropescope::detail
