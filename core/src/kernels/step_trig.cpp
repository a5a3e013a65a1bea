// The rotation recurrence for cos/sin tables of positions in steps of one (see step_trig.h).
#include "step_trig.h"

#include <cmath>
#include <vector>

namespace ropescope::detail {

void stepTrigTable(const double* p, std::size_t count, const double* theta, std::size_t m,
                   std::size_t ld, double* out) {
  std::vector<double> stepCos(m), stepSin(m);
  for (std::size_t k = 0; k < m; ++k) {
    stepCos[k] = std::cos(theta[k]);
    stepSin[k] = std::sin(theta[k]);
  }
  const double* __restrict sc = stepCos.data();
  const double* __restrict ss = stepSin.data();
  std::size_t sinceAnchor = 0;
  for (std::size_t j = 0; j < count; ++j, ++sinceAnchor) {
    double* __restrict c = out + j * ld;
    double* __restrict s = c + m;
    if (j == 0 || sinceAnchor == kStepTrigAnchor || p[j] != p[j - 1] + 1.0) {
      for (std::size_t k = 0; k < m; ++k) {
        const double phi = theta[k] * p[j];
        c[k] = std::cos(phi);
        s[k] = std::sin(phi);
      }
      sinceAnchor = 0;
      continue;
    }
    const double* __restrict pc = c - ld;
    const double* __restrict ps = s - ld;
#pragma omp simd
    for (std::size_t k = 0; k < m; ++k) {
      c[k] = pc[k] * sc[k] - ps[k] * ss[k];
      s[k] = ps[k] * sc[k] + pc[k] * ss[k];
    }
  }
}

}  // namespace ropescope::detail
