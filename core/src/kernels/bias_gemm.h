// The bias spread's matrix product, built once per instruction set (bias_gemm_*.cpp) and chosen
// at run time: Eigen's products are templates, so target_clones cannot reach them and only a
// translation unit compiled with -mavx2 / -mavx512f gets the wider kernels.
#pragma once

#include <cstddef>

namespace ropescope::detail {

// out (rows x cols) = a (rows x inner) * x (inner x cols); all column-major, densely packed.
using BiasGemmFn = void (*)(const double* a, const double* x, std::ptrdiff_t rows,
                            std::ptrdiff_t inner, std::ptrdiff_t cols, double* out);

// Text tokens per product when all pairs go into one GEMM (metrics.cpp, fused form): the output
// block (visual x chunk) stays within one core's L2 cache for a few thousand visual tokens.
// bench_bias times the kernel at this width against OpenBLAS's dgemm.
constexpr std::ptrdiff_t kBiasGemmChunk = 64;

BiasGemmFn biasGemmAvx512();  // nullptr unless this file was built for AVX-512
BiasGemmFn biasGemmAvx2();    // nullptr unless built for AVX2 + FMA
BiasGemmFn biasGemmBaseline();

// The copy for this CPU, capped by ROPESCOPE_CPU_ISA=avx2|baseline; isaOut names it.
BiasGemmFn biasGemm(const char** isaOut = nullptr);

}  // namespace ropescope::detail
