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
  std::size_t still = 0;  // pairs of frequency 0: each adds 1 at every distance
  for (double t : thetas) still += t == 0.0 ? 1 : 0;
  if (still == thetas.size()) {
    out.undefined = "every pair of the axis has frequency 0 (NoPE): the sum never falls";
    return out;
  }
  // The sum is at least still - (pairs - still): never negative when the still pairs are half.
  if (2 * still >= thetas.size()) {
    out.undefined = std::to_string(still) + " of the " + std::to_string(thetas.size()) +
                    " pairs do not turn: the sum never falls below 0";
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

DiscriminationBound discriminationBoundAlong(const PairTable& pairs, const Id3& direction,
                                             bool subset) {
  Axis moving = Axis::T;
  if (subset)
    for (int a = 0; a < 3; ++a)
      if (direction[a] != 0.0) moving = static_cast<Axis>(a);
  std::vector<double> thetas;
  for (int p = 0; p < pairs.size(); ++p) {
    const Axis axis = pairs.axis[static_cast<std::size_t>(p)];
    if (subset && axis != moving) continue;
    thetas.push_back(pairs.theta[static_cast<std::size_t>(p)] *
                     std::abs(axisCoordinate(axis, direction)));
  }
  return discriminationBound(thetas);
}

std::vector<int> fullPeriodPairs(const std::vector<double>& thetas, double trainedLength) {
  std::vector<int> out;
  for (std::size_t i = 0; i < thetas.size(); ++i)
    if (thetas[i] > 0.0 && kTwoPi / thetas[i] <= trainedLength) out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace ropescope
