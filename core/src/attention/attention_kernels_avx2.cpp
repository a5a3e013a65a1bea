// The attention kernels built for AVX2 with FMA: core/CMakeLists.txt gives this file those
// flags; attention_cpu.cpp calls it only on CPUs that report them.
#define Eigen ropescope_eigen_avx2
#define ROPESCOPE_KERNEL_ISA "avx2"
#include "attention_kernels.inc"

namespace ropescope::detail {
const AttentionKernels* attentionKernelsAvx2() {
#if defined(__AVX2__) && defined(__FMA__)
  return &kKernels;
#else
  return nullptr;
#endif
}
}  // namespace ropescope::detail
