// The bias spread's product fused with its reduction, for AVX-512: for each text column j of
// X, sum over the visual rows i of |(A X)(i, j) - shift[j]|, without storing A X (4 M doubles
// at 2048 x 2048 tokens). A register-blocked kernel (24 visual rows x 8 text columns per block)
// over A packed once into panels of 24 rows; the CPU and ROPESCOPE_CPU_ISA decide whether it
// runs (metrics.cpp otherwise takes the Eigen product of bias_gemm.h and a separate pass).
#pragma once

#include <cstddef>
#include <vector>

namespace ropescope::detail {

constexpr std::ptrdiff_t kBiasPanelRows = 24;  // visual rows per panel (3 AVX-512 vectors)
constexpr std::ptrdiff_t kBiasPanelCols = 8;   // text columns per register block

// Where A(i, k) lies in the packed panels (see packBiasPanels).
inline std::size_t biasPanelIndex(std::size_t i, std::size_t k, std::size_t inner) {
  constexpr auto rows = static_cast<std::size_t>(kBiasPanelRows);
  return ((i / rows) * inner + k) * rows + i % rows;
}
inline std::size_t biasPanelSize(std::size_t visual, std::size_t inner) {
  constexpr auto rows = static_cast<std::size_t>(kBiasPanelRows);
  return (visual + rows - 1) / rows * rows * inner;
}

// a: visual x inner, column-major. Returns panels of kBiasPanelRows rows, each inner x 24
// row-major (row k holds A(i0..i0+23, k)), the rows past `visual` zero.
std::vector<double> packBiasPanels(const double* a, std::ptrdiff_t visual, std::ptrdiff_t inner);

// out[j] = sum_i |sum_k A(i, k) x[j * inner + k] - shift[j]| for j < cols. x holds
// cols rounded up to kBiasPanelCols columns (the extra ones are read, never reported).
using BiasAbsDevFn = void (*)(const double* panels, std::ptrdiff_t visual, std::ptrdiff_t inner,
                              const double* x, std::ptrdiff_t cols, const double* shift,
                              double* out);

// The AVX-512 kernel when this CPU has AVX-512 (F, DQ) and ROPESCOPE_CPU_ISA does not cap it;
// nullptr otherwise.
BiasAbsDevFn biasAbsDev();

}  // namespace ropescope::detail
