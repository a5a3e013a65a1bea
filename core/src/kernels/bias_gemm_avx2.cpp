// The bias GEMM for AVX2 with FMA: core/CMakeLists.txt gives this file those flags; biasGemm()
// calls it only on CPUs that report them.
#define Eigen ropescope_bias_eigen_avx2
#include "bias_gemm.inc"

namespace ropescope::detail {
BiasGemmFn biasGemmAvx2() {
#if defined(__AVX2__) && defined(__FMA__)
  return gemm;
#else
  return nullptr;
#endif
}
}  // namespace ropescope::detail
