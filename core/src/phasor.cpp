// The phasor picture: per pair its phase and unit vector, the running sums S_j and their mean
// length (RoFormer's bound), computed in the same order as decay.cpp so the mean matches
// decayBound to the last bit.
#include "ropescope/phasor.h"

#include <cmath>
#include <numbers>

#include "ropescope/errors.h"
#include "ropescope/metrics.h"

namespace ropescope {

double wrapPhase(double phase) {
  constexpr double kPi = std::numbers::pi;
  double w = std::remainder(phase, 2.0 * kPi);  // [−π, π]
  if (w <= -kPi) w += 2.0 * kPi;                // −π belongs to the other end of (−π, π]
  return w;
}

Phasor computePhasor(const PairTable& pairs, const Id3& delta) {
  Phasor out;
  out.delta = delta;
  const std::vector<double> phases = pairPhases(pairs, delta);
  const int n = pairs.size();
  out.pairs.resize(n);
  double re = 0.0, im = 0.0, total = 0.0, cosSum = 0.0;
  for (int k = 0; k < n; ++k) {
    PhasorPair& p = out.pairs[k];
    p.index = k;
    p.axis = pairs.axis[k];
    p.theta = pairs.axis[k] == Axis::None ? 0.0 : pairs.theta[k];
    p.phase = phases[k];
    p.wrapped = wrapPhase(p.phase);
    p.turns = p.phase / (2.0 * std::numbers::pi);
    p.re = std::cos(p.phase);
    p.im = std::sin(p.phase);
    re += p.re;
    im += p.im;
    p.sumRe = re;
    p.sumIm = im;
    p.sumLength = std::hypot(re, im);
    total += p.sumLength;
    cosSum += p.re;
    const int a = coordinateSlot(p.axis);
    if (a >= 0) {
      ++out.axisPairs[a];
      out.axisBias[a] += p.re;
    }
  }
  for (int a = 0; a < 4; ++a)
    if (out.axisPairs[a] > 0) out.axisBias[a] /= out.axisPairs[a];
  out.endRe = re;
  out.endIm = im;
  out.decayBound = n ? total / n : 0.0;
  out.bias = n ? cosSum / n : 0.0;
  return out;
}

AxisBias biasAlongAxes(const PairTable& pairs, double distance) {
  return {positionalBias(pairs, {distance, 0, 0}), positionalBias(pairs, {0, distance, 0}),
          positionalBias(pairs, {0, 0, distance}),
          positionalBias(pairs, {distance, distance, distance})};
}

Id3 directionDisplacement(const std::string& direction, double distance) {
  if (!std::isfinite(distance))
    throw InputError("distance must be a finite number of positions", "distance");
  if (direction == "t") return {distance, 0, 0};
  if (direction == "h") return {0, distance, 0};
  if (direction == "w") return {0, 0, distance};
  if (direction == "thw") return {distance, distance, distance};
  throw InputError("direction '" + direction + "' is unknown: use t, h, w or thw", "direction");
}

}  // namespace ropescope
