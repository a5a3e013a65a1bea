// RoFormer's decay bound. decayCurve walks integer distances with complex rotations instead of
// trigonometry, eight distances per vector, re-anchored with exact cos/sin every 2048 distances
// (the inner loop is in kernels/metric_kernels.cpp, one copy per instruction set).
#include "ropescope/decay.h"

#include <cmath>
#include <limits>

#include "kernels/metric_kernels.h"
#include "parallel.h"
#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope {

double decayBound(const PairTable& pairs, const Id3& delta) {
  double re = 0.0, im = 0.0, total = 0.0;
  for (int p = 0; p < pairs.size(); ++p) {
    const double phi = pairs.theta[p] * axisCoordinate(pairs.axis[p], delta);
    re += std::cos(phi);
    im += std::sin(phi);
    total += std::hypot(re, im);
  }
  // (1/n) sum over no pairs is undefined, not 0.
  return pairs.size() ? total / pairs.size() : std::numeric_limits<double>::quiet_NaN();
}

PairTable subsetPairs(const PairTable& pairs, Axis axis) {
  PairTable out;
  out.headDim = pairs.headDim;
  for (int p = 0; p < pairs.size(); ++p)
    if (pairs.axis[p] == axis) {
      out.axis.push_back(axis);
      out.theta.push_back(pairs.theta[p]);
    }
  return out;
}

namespace {

// The table and per-pair angular rate (theta times the direction's component) a curve uses.
PairTable curveTable(const PairTable& pairs, const Id3& direction, DecayForm form) {
  if (form == DecayForm::Full) return pairs;
  int moving = -1, count = 0;
  for (int a = 0; a < 3; ++a)
    if (direction[a] != 0.0) {
      moving = a;
      ++count;
    }
  if (count != 1)
    throw InputError("the subset decay form needs a direction along one axis (t, h or w)",
                     "direction");
  // A pair on VRoPE's fourth map (h + w - t) turns with every axis: no subset of pairs is the
  // one that moves along a single axis.
  for (Axis a : pairs.axis)
    if (a == Axis::Mix)
      throw InputError(
          "the subset decay form is not defined for a plan with pairs on the h+w-t map (vrope): "
          "use the full form",
          "direction");
  PairTable subset = subsetPairs(pairs, static_cast<Axis>(moving));
  if (subset.size() == 0) {
    std::string counts;
    for (Axis a : {Axis::T, Axis::H, Axis::W})
      counts += (counts.empty() ? "" : ", ") + std::string(axisName(a)) + " " +
                std::to_string(pairs.pairsOf(a).size());
    throw InputError(std::string("the subset decay form is undefined along ") +
                         axisName(static_cast<Axis>(moving)) +
                         ": the plan puts no pair on that axis (pairs per axis: " + counts +
                         "); use the full form or an axis with pairs",
                     "direction");
  }
  return subset;
}

constexpr int kLanes = 8;
constexpr int kAnchorEvery = 2048;  // distances between exact re-anchoring

// Per pair: the lane offsets e^{i l omega_p} (l < kLanes) and the step e^{i kLanes omega_p},
// computed once per curve. An anchor at distance `first` is then one exact cos/sin per pair,
// e^{i first omega_p}, times the offsets: the product adds an ulp or two, not the drift the
// recurrence would accumulate without anchors.
struct Rotation {
  std::vector<double> laneCos, laneSin, stepCos, stepSin;
};

Rotation rotation(const std::vector<double>& omega) {
  const std::size_t n = omega.size();
  Rotation rot{std::vector<double>(n * kLanes), std::vector<double>(n * kLanes),
               std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t p = 0; p < n; ++p) {
    for (int l = 0; l < kLanes; ++l) {
      rot.laneCos[p * kLanes + l] = std::cos(l * omega[p]);
      rot.laneSin[p * kLanes + l] = std::sin(l * omega[p]);
    }
    rot.stepCos[p] = std::cos(kLanes * omega[p]);
    rot.stepSin[p] = std::sin(kLanes * omega[p]);
  }
  return rot;
}

// U at distances [first, first + kLanes * blocks), via the vectorised recurrence of the metric
// kernels. zr/zi: scratch of kLanes doubles per pair.
void rotatedBlock(const detail::MetricKernels& k, const std::vector<double>& omega,
                  const Rotation& rot, long first, long blocks, double* zr, double* zi,
                  double* out) {
  const int n = static_cast<int>(omega.size());
  for (int p = 0; p < n; ++p) {
    const double phi = static_cast<double>(first) * omega[p];
    const double ar = std::cos(phi), ai = std::sin(phi);
    for (int l = 0; l < kLanes; ++l) {
      const double lc = rot.laneCos[p * kLanes + l], ls = rot.laneSin[p * kLanes + l];
      zr[p * kLanes + l] = ar * lc - ai * ls;
      zi[p * kLanes + l] = ar * ls + ai * lc;
    }
  }
  k.decayBlocks(zr, zi, rot.stepCos.data(), rot.stepSin.data(), n, blocks, out);
}

}  // namespace

std::vector<double> decayCurve(const PairTable& pairs, const Id3& direction, int maxDistance,
                               DecayForm form, int threads) {
  if (maxDistance < 0 || maxDistance > kMaxDecayDistance)
    throw InputError("max distance must be 0.." + std::to_string(kMaxDecayDistance) + " (got " +
                         std::to_string(maxDistance) + ")",
                     "max_distance");
  for (double d : direction)
    if (!(std::abs(d) <= kMaxDecayDirection))  // NaN too
      throw InputError(std::string("direction components must be finite numbers in ") +
                           kDecayDirectionRange + " (got " + formatDouble(direction[0]) + "," +
                           formatDouble(direction[1]) + "," + formatDouble(direction[2]) + ")",
                       "direction");
  const PairTable table = curveTable(pairs, direction, form);
  const int n = table.size();
  std::vector<double> omega(n);
  for (int p = 0; p < n; ++p) omega[p] = table.theta[p] * axisCoordinate(table.axis[p], direction);
  const long count = static_cast<long>(maxDistance) + 1;
  std::vector<double> out(static_cast<std::size_t>(count));
  if (n == 0) return out;
  const long fullBlocks = count / kLanes;
  const long blocksPerAnchor = kAnchorEvery / kLanes;
  const long anchors = (fullBlocks + blocksPerAnchor - 1) / blocksPerAnchor;
  const detail::MetricKernels& kern = detail::metricKernels();
  const Rotation rot = rotation(omega);
  detail::parallelFor(static_cast<std::size_t>(anchors), threads,
                      [&](std::size_t b, std::size_t e) {
                        std::vector<double> zr(static_cast<std::size_t>(n) * kLanes), zi(zr.size());
                        for (std::size_t a = b; a < e; ++a) {
                          const long firstBlock = static_cast<long>(a) * blocksPerAnchor;
                          const long nb = std::min(blocksPerAnchor, fullBlocks - firstBlock);
                          rotatedBlock(kern, omega, rot, firstBlock * kLanes, nb, zr.data(),
                                       zi.data(), out.data() + firstBlock * kLanes);
                        }
                      });
  for (long r = fullBlocks * kLanes; r < count; ++r) {
    const double rd = static_cast<double>(r);
    out[r] = decayBound(table, {rd * direction[0], rd * direction[1], rd * direction[2]});
  }
  return out;
}

std::vector<double> decayCurveReference(const PairTable& pairs, const Id3& direction,
                                        int maxDistance, DecayForm form) {
  const PairTable table = curveTable(pairs, direction, form);
  std::vector<double> out;
  for (int r = 0; r <= maxDistance; ++r)
    out.push_back(decayBound(table, {r * direction[0], r * direction[1], r * direction[2]}));
  return out;
}

}  // namespace ropescope
