// The bias GEMM for AVX-512: core/CMakeLists.txt gives this file those flags; biasGemm() calls it
// only on CPUs that report them.
#define Eigen ropescope_bias_eigen_avx512
#include "bias_gemm.inc"

namespace ropescope::detail {
BiasGemmFn biasGemmAvx512() {
#if defined(__AVX512F__) && defined(__FMA__)
  return gemm;
#else
  return nullptr;
#endif
}
}  // namespace ropescope::detail
