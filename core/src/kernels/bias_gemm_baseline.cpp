// The bias GEMM for the x86-64 baseline (SSE2), and the run-time choice between the copies.
#define Eigen ropescope_bias_eigen_baseline
#include "bias_gemm.inc"

#include <cstdlib>
#include <string>

namespace ropescope::detail {

BiasGemmFn biasGemmBaseline() {
  return gemm;
}

BiasGemmFn biasGemm(const char** isaOut) {
  const char* cap = std::getenv("ROPESCOPE_CPU_ISA");
  const std::string limit = cap ? cap : "";
  BiasGemmFn fn = biasGemmBaseline();
  const char* isa = "baseline";
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (BiasGemmFn f = biasGemmAvx512();
      f && limit != "avx2" && limit != "baseline" && fma && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw")) {
    fn = f;
    isa = "avx512";
  } else if (BiasGemmFn g = biasGemmAvx2();
             g && limit != "baseline" && fma && __builtin_cpu_supports("avx2")) {
    fn = g;
    isa = "avx2";
  }
#endif
  if (isaOut) *isaOut = isa;
  return fn;
}

}  // namespace ropescope::detail
