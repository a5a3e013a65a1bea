// The attention kernels built for AVX-512 (F, DQ, VL, BW with FMA): core/CMakeLists.txt gives
// this file those flags; attention_cpu.cpp calls it only on CPUs that report them.
#define Eigen ropescope_eigen_avx512
#define ROPESCOPE_KERNEL_ISA "avx512"
#include "attention_kernels.inc"

namespace ropescope::detail {
const AttentionKernels* attentionKernelsAvx512() {
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__FMA__)
  return &kKernels;
#else
  return nullptr;  // built without the flags (e.g. a copy of core elsewhere): not an AVX-512 path
#endif
}
}  // namespace ropescope::detail
