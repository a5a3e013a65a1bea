// RoFormer's decay bound. decayCurve walks integer distances with complex rotations instead of
// trigonometry, eight distances per vector, re-anchored with exact cos/sin every 256 distances.
#include "ropescope/decay.h"

#include <cmath>

#include "parallel.h"
#include "ropescope/errors.h"

namespace ropescope {

double decayBound(const PairTable& pairs, const Id3& delta) {
  double re = 0.0, im = 0.0, total = 0.0;
  for (int p = 0; p < pairs.size(); ++p) {
    const double phi =
        pairs.axis[p] == Axis::None ? 0.0 : pairs.theta[p] * delta[static_cast<int>(pairs.axis[p])];
    re += std::cos(phi);
    im += std::sin(phi);
    total += std::hypot(re, im);
  }
  return pairs.size() ? total / pairs.size() : 0.0;
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
  return subsetPairs(pairs, static_cast<Axis>(moving));
}

constexpr int kLanes = 8;
constexpr int kAnchorEvery = 256;  // distances between exact re-anchoring

// U at distances [first, first + count), count a multiple of kLanes handled by the caller.
__attribute__((target_clones("avx512f", "avx2", "default"))) void rotatedBlock(const double* omega,
                                                                               int n, long first,
                                                                               long blocks,
                                                                               double* out) {
  // State per pair and lane: e^{i (first + lane) omega_p}, rotated by e^{i kLanes omega_p}.
  std::vector<double> zr(static_cast<std::size_t>(n) * kLanes), zi(zr.size()), rr(n), ri(n);
  for (int p = 0; p < n; ++p) {
    for (int l = 0; l < kLanes; ++l) {
      const double phi = static_cast<double>(first + l) * omega[p];
      zr[p * kLanes + l] = std::cos(phi);
      zi[p * kLanes + l] = std::sin(phi);
    }
    rr[p] = std::cos(kLanes * omega[p]);
    ri[p] = std::sin(kLanes * omega[p]);
  }
  for (long b = 0; b < blocks; ++b) {
    double sr[kLanes] = {}, si[kLanes] = {}, acc[kLanes] = {};
    for (int p = 0; p < n; ++p) {
      double* __restrict r = &zr[p * kLanes];
      double* __restrict i = &zi[p * kLanes];
      const double cr = rr[p], ci = ri[p];
      for (int l = 0; l < kLanes; ++l) {
        sr[l] += r[l];
        si[l] += i[l];
        acc[l] += std::sqrt(sr[l] * sr[l] + si[l] * si[l]);
        const double nr = r[l] * cr - i[l] * ci;
        i[l] = r[l] * ci + i[l] * cr;
        r[l] = nr;
      }
    }
    for (int l = 0; l < kLanes; ++l) out[b * kLanes + l] = acc[l] / n;
  }
}

}  // namespace

std::vector<double> decayCurve(const PairTable& pairs, const Id3& direction, int maxDistance,
                               DecayForm form, int threads) {
  if (maxDistance < 0 || maxDistance > 100'000'000)
    throw InputError("max distance must be 0..100000000 (got " + std::to_string(maxDistance) + ")",
                     "max_distance");
  for (double d : direction)
    if (!std::isfinite(d))
      throw InputError("direction components must be finite numbers", "direction");
  const PairTable table = curveTable(pairs, direction, form);
  const int n = table.size();
  std::vector<double> omega(n);
  for (int p = 0; p < n; ++p)
    omega[p] = table.axis[p] == Axis::None
                   ? 0.0
                   : table.theta[p] * direction[static_cast<int>(table.axis[p])];
  const long count = static_cast<long>(maxDistance) + 1;
  std::vector<double> out(static_cast<std::size_t>(count));
  if (n == 0) return out;
  const long fullBlocks = count / kLanes;
  const long blocksPerAnchor = kAnchorEvery / kLanes;
  const long anchors = (fullBlocks + blocksPerAnchor - 1) / blocksPerAnchor;
  detail::parallelFor(
      static_cast<std::size_t>(anchors), threads, [&](std::size_t b, std::size_t e) {
        for (std::size_t a = b; a < e; ++a) {
          const long firstBlock = static_cast<long>(a) * blocksPerAnchor;
          const long nb = std::min(blocksPerAnchor, fullBlocks - firstBlock);
          rotatedBlock(omega.data(), n, firstBlock * kLanes, nb, out.data() + firstBlock * kLanes);
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
