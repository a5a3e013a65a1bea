// The attention kernels with the project's baseline flags (x86-64 SSE2, or whatever the target
// is): the fallback on CPUs without AVX2. Eigen is renamed here too, so no copy is shared.
#define Eigen ropescope_eigen_baseline
#define ROPESCOPE_KERNEL_ISA "baseline"
#include "attention_kernels.inc"

namespace ropescope::detail {
const AttentionKernels& attentionKernelsBaseline() {
  return kKernels;
}
}  // namespace ropescope::detail
