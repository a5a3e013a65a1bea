// The floor loop as the project's own Release flags compile it (-O3, x86-64 baseline, math-errno
// on): kept in its own file so bench_floor.cpp's -fno-math-errno does not apply to it.
#include <cmath>
#include <cstddef>

namespace ropescope::bench {

double exact3Plain(const double* x, const double* y, const double* z, std::size_t n, double p) {
  double acc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x[i] - p, dy = y[i] - p, dz = z[i] - p;
    acc += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return acc;
}

}  // namespace ropescope::bench
