// The discrimination bound and the full-period pairs (rope_bounds.h).
#include "ropescope/rope_bounds.h"

#include <cmath>

namespace ropescope {

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr long long kResync = 1024;  // steps between exact cos and sin
}  // namespace

DiscriminationBound discriminationBound(const std::vector<double>& thetas, long long limit) {
  DiscriminationBound out;
  if (thetas.empty()) {
    out.undefined = "the axis turns with no rotary pair";
    return out;
  }
  bool rotating = false;
  for (double t : thetas) rotating = rotating || t != 0.0;
  if (!rotating) {
    out.undefined = "every pair of the axis has frequency 0 (NoPE): the sum never falls";
    return out;
  }
  const std::size_t n = thetas.size();
  std::vector<double> c(n), s(n), stepC(n), stepS(n);
  for (std::size_t i = 0; i < n; ++i) {
    stepC[i] = std::cos(thetas[i]);
    stepS[i] = std::sin(thetas[i]);
    c[i] = stepC[i];
    s[i] = stepS[i];
  }
  for (long long m = 1; m <= limit; ++m) {
    if (m % kResync == 0)
      for (std::size_t i = 0; i < n; ++i) {
        const double a = std::fmod(thetas[i] * static_cast<double>(m), kTwoPi);
        c[i] = std::cos(a);
        s[i] = std::sin(a);
      }
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += c[i];
    if (sum < 0.0) {
      out.distance = m;
      return out;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double nc = c[i] * stepC[i] - s[i] * stepS[i];
      s[i] = s[i] * stepC[i] + c[i] * stepS[i];
      c[i] = nc;
    }
  }
  out.undefined = "the sum stays >= 0 up to distance " + std::to_string(limit);
  return out;
}

std::vector<int> fullPeriodPairs(const std::vector<double>& thetas, double trainedLength) {
  std::vector<int> out;
  for (std::size_t i = 0; i < thetas.size(); ++i)
    if (thetas[i] > 0.0 && kTwoPi / thetas[i] <= trainedLength) out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace ropescope
