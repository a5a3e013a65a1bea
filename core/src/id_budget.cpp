// The id budget (id_budget.h): one pass over the tokens for the running largest ids and the
// curve, then per axis the distance, its ratio to the trained length and the pairs whose angle
// leaves the trained range. The rules and their sources are in docs/math.md ("The id budget").
#include "ropescope/id_budget.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ropescope/errors.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

constexpr double kBudgetTwoPi = 6.283185307179586476925286766559;

// The sampled token indices: `points` of 0..n-1, evenly spread, first and last included; every
// index when n <= points. Increasing, so the pass records each as it reaches it.
std::vector<std::size_t> sampleIndices(std::size_t n, std::size_t points) {
  std::vector<std::size_t> out;
  if (n <= points) {
    out.resize(n);
    for (std::size_t k = 0; k < n; ++k) out[k] = k;
    return out;
  }
  out.reserve(points);
  const long double step = static_cast<long double>(n - 1) / static_cast<long double>(points - 1);
  for (std::size_t i = 0; i < points; ++i)
    out.push_back(i + 1 == points ? n - 1 : static_cast<std::size_t>(step * i));
  return out;
}

}  // namespace

TrainedLength trainedLengthOf(const RopeScaling& rope, long long configMax, long long given) {
  if (given > 0) return {given, "--trained-length", {}};
  if (rope.active()) {
    for (const char* key : {"original_max_position_embeddings", "max_position_embeddings"})
      if (const auto v = ropeParam(rope, key); v && *v >= 1.0)
        return {static_cast<long long>(*v), "rope " + rope.type + " " + key, {}};
  }
  if (configMax > 0) return {configMax, "config max_position_embeddings", {}};
  return {0,
          {},
          "no trained length: the rotary names no original_max_position_embeddings and no "
          "model config gives max_position_embeddings (give --trained-length N)"};
}

IdBudget idBudget(const PositionIds& ids, const PairTable& pairs, const RopeScaling& rope,
                  const TrainedLength& trained, std::size_t points) {
  const std::size_t n = ids.size();
  if (n == 0)
    throw InputError("the id budget needs at least one token (the layout is empty)", "layout");
  if (points < kMinBudgetPoints || points > kMaxBudgetPoints)
    throw InputError("--points expects a whole number in " + std::to_string(kMinBudgetPoints) +
                         ".." + std::to_string(kMaxBudgetPoints) + " (got " +
                         std::to_string(points) + ")",
                     "points");
  IdBudget b;
  b.design = ids.design;
  b.tokens = n;
  b.trained = trained;
  b.ropeDelta = ids.ropeDelta;
  b.ropeType = rope.type;

  // The switch: the scene's own dynamic / longrope, else the trained length.
  if (pairs.switchLength > 0) {
    b.switchLength = pairs.switchLength;
    b.switchFrom = "rope " + pairs.ropeType;
  } else if (trained.known()) {
    b.switchLength = trained.tokens;
    b.switchFrom = "trained length";
  }

  // Whether the plan turns pairs with h+w-t (VRoPE): its coordinate gets an axis of its own.
  bool mix = false;
  for (Axis a : pairs.axis) mix = mix || a == Axis::Mix;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Id3 lo{kInf, kInf, kInf}, hi{-kInf, -kInf, -kInf};
  double mixLo = kInf, mixHi = -kInf;

  // One pass: running largest per axis, the curve's points, the switch token.
  const std::vector<std::size_t> sample = sampleIndices(n, points);
  b.curveTokens.reserve(sample.size());
  b.curveMax.reserve(sample.size());
  b.curveLargest.reserve(sample.size());
  std::size_t next = 0;
  const double switchAt = static_cast<double>(b.switchLength);
  for (std::size_t k = 0; k < n; ++k) {
    const Id3& id = ids.ids[k];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], id[a]);
      hi[a] = std::max(hi[a], id[a]);
    }
    if (mix) {
      const double m = axisCoordinate(Axis::Mix, id);
      mixLo = std::min(mixLo, m);
      mixHi = std::max(mixHi, m);
    }
    const double largest = std::max({hi[0], hi[1], hi[2]});
    // transformers' seq_len: the largest id, a fractional one rounded up, plus one.
    if (b.switchLength > 0 && !b.switchToken && std::ceil(largest) + 1.0 > switchAt)
      b.switchToken = k;
    if (next < sample.size() && sample[next] == k) {
      b.curveTokens.push_back(k + 1);
      b.curveMax.push_back(hi);
      b.curveLargest.push_back(largest);
      ++next;
    }
  }
  b.minId = lo;
  b.maxId = hi;
  b.largestId = std::max({hi[0], hi[1], hi[2]});
  b.growth = (b.largestId + 1.0) / static_cast<double>(n);

  const double L = static_cast<double>(trained.tokens);
  const auto axisBudget = [&](Axis axis, double mn, double mx) {
    AxisBudget a;
    a.axis = axis;
    a.minId = mn;
    a.maxId = mx;
    a.distance = mx - mn;
    for (int p = 0; p < pairs.size(); ++p) {
      if (pairs.axis[static_cast<std::size_t>(p)] != axis) continue;
      ++a.pairs;
      if (!trained.known()) continue;
      const double theta = pairs.theta[static_cast<std::size_t>(p)];
      const double thetaTrain =
          pairs.scaled() ? pairs.thetaUnscaled[static_cast<std::size_t>(p)] : theta;
      const double seen = thetaTrain * (L - 1.0);  // the largest angle seen in training
      if (seen < kBudgetTwoPi && theta * a.distance > seen) a.outsidePairs.push_back(p);
    }
    std::vector<double> inUse, trainedTheta;
    for (int p = 0; p < pairs.size(); ++p) {
      if (pairs.axis[static_cast<std::size_t>(p)] != axis) continue;
      inUse.push_back(pairs.theta[static_cast<std::size_t>(p)]);
      trainedTheta.push_back(pairs.scaled() ? pairs.thetaUnscaled[static_cast<std::size_t>(p)]
                                            : pairs.theta[static_cast<std::size_t>(p)]);
    }
    a.discrimination = discriminationBound(inUse);
    if (a.discrimination.distance)
      a.withinBound = a.distance < static_cast<double>(*a.discrimination.distance);
    else if (!inUse.empty() && a.distance <= static_cast<double>(kMaxDiscriminationDistance))
      a.withinBound = true;
    if (inUse.empty()) {
      a.criticalUndefined = std::string("the plan turns no pair with axis ") + axisName(axis);
    } else if (trained.known()) {
      // Indices into the axis's own pairs: map them back to the table's pair numbers.
      std::vector<int> axisPairs;
      for (int p = 0; p < pairs.size(); ++p)
        if (pairs.axis[static_cast<std::size_t>(p)] == axis) axisPairs.push_back(p);
      for (int i : fullPeriodPairs(trainedTheta, L))
        a.fullPeriodPairs.push_back(axisPairs[static_cast<std::size_t>(i)]);
      a.criticalDimension = 2 * static_cast<int>(a.fullPeriodPairs.size());
    } else {
      a.criticalUndefined = trained.reason;
    }
    if (trained.known()) {
      a.ratio = a.distance / L;
      if (a.pairs > 0)
        a.share = static_cast<double>(a.outsidePairs.size()) / static_cast<double>(a.pairs);
      else
        a.shareUndefined = std::string("the plan turns no pair with axis ") + axisName(axis);
    } else {
      a.shareUndefined = trained.reason;
    }
    b.axes.push_back(std::move(a));
  };
  for (int a = 0; a < 3; ++a) axisBudget(static_cast<Axis>(a), lo[a], hi[a]);
  if (mix) axisBudget(Axis::Mix, mixLo, mixHi);

  if (trained.known()) {
    b.yarnFactorFromIds = (b.largestId + 1.0) / L;
    b.yarnFactorFromTokens = static_cast<double>(n) / L;
  }
  if (rope.active())
    if (const auto f = ropeParam(rope, "factor")) {
      b.ropeFactor = *f;
      if (trained.known()) b.ropeCovers = *f * L >= b.largestId + 1.0;
    }
  return b;
}

IdBudget sceneIdBudget(const Scene& scene, long long configMax, long long given,
                       std::size_t points) {
  const PositionIds ids = effectiveIds(scene);
  const PairTable pairs = resolvePairs(scene.frequency);
  return idBudget(ids, pairs, scene.frequency.rope,
                  trainedLengthOf(scene.frequency.rope, configMax, given), points);
}

}  // namespace ropescope
