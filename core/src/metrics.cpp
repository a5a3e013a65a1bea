// Distances, PTD and positional bias. The fast paths use the fact that text ids lie on the
// diagonal (p, p, p); the reference paths are the definitions written out, used by the tests.
#include "ropescope/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <Eigen/Dense>

#include "parallel.h"

namespace ropescope {

namespace {

int spaceDims(MetricSpace s) {
  return s == MetricSpace::Line ? 1 : s == MetricSpace::Plane ? 2 : 3;
}

// The coordinates a design's distance uses: t (line), (h, w) (plane) or (t, h, w).
inline int firstAxis(MetricSpace s) {
  return s == MetricSpace::Plane ? 1 : 0;
}

bool onDiagonal(const Id3& id) {
  return id[0] == id[1] && id[1] == id[2];
}

// Mean absolute deviation of v around its mean; writes the mean too.
double meanAbsDeviation(const double* v, std::size_t n, double* meanOut) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += v[i];
  const double mean = sum / static_cast<double>(n);
  double dev = 0.0;
  for (std::size_t i = 0; i < n; ++i) dev += std::abs(v[i] - mean);
  *meanOut = mean;
  return dev / static_cast<double>(n);
}

// Visual tokens of one block, re-expressed around the block's centre m (on the diagonal) so
// that d^2 = D q^2 + a_i q + b_i with q = p - m stays accurate: q and u are both of the block's
// own scale whenever d is small.
struct CentredBlock {
  double m = 0.0;
  std::vector<double> a;  // -2 * sum of the centred coordinates
  std::vector<double> b;  // squared norm of the centred coordinates
  std::vector<double> u;  // line space: the centred coordinate itself
};

std::vector<CentredBlock> centredBlocks(const PositionIds& ids,
                                        const std::vector<std::size_t>& vis) {
  const int dims = spaceDims(ids.space), first = firstAxis(ids.space);
  std::vector<CentredBlock> blocks;
  std::size_t i = 0;
  while (i < vis.size()) {
    std::size_t j = i;
    const int seg = ids.tokens[vis[i]].segment;
    while (j < vis.size() && ids.tokens[vis[j]].segment == seg) ++j;
    CentredBlock blk;
    double sum = 0.0;
    for (std::size_t k = i; k < j; ++k)
      for (int d = 0; d < dims; ++d) sum += ids.ids[vis[k]][first + d];
    blk.m = sum / static_cast<double>((j - i) * dims);
    for (std::size_t k = i; k < j; ++k) {
      double s = 0.0, q = 0.0;
      for (int d = 0; d < dims; ++d) {
        const double c = ids.ids[vis[k]][first + d] - blk.m;
        s += c;
        q += c * c;
      }
      blk.a.push_back(-2.0 * s);
      blk.b.push_back(q);
      if (dims == 1) blk.u.push_back(ids.ids[vis[k]][first] - blk.m);
    }
    blocks.push_back(std::move(blk));
    i = j;
  }
  return blocks;
}

// Distances from a diagonal text position p to every visual token of the blocks, into out.
// Multi-versioned so the square roots use the widest vectors the CPU has.
__attribute__((target_clones("avx512f", "avx2", "default"))) void diagonalDistances(
    const CentredBlock* blocks, std::size_t nBlocks, int dims, double p, double* out) {
  for (std::size_t bi = 0; bi < nBlocks; ++bi) {
    const CentredBlock& blk = blocks[bi];
    const double q = p - blk.m;
    const std::size_t n = blk.a.size();
    if (dims == 1) {
      const double* u = blk.u.data();
      for (std::size_t i = 0; i < n; ++i) out[i] = std::abs(q - u[i]);
    } else {
      const double c = dims * q * q;
      const double* a = blk.a.data();
      const double* b = blk.b.data();
      for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(std::fma(a[i], q, b[i]) + c);
    }
    out += n;
  }
}

}  // namespace

double tokenDistance(const PositionIds& ids, std::size_t a, std::size_t b) {
  const int dims = spaceDims(ids.space), first = firstAxis(ids.space);
  double s = 0.0;
  for (int d = 0; d < dims; ++d) {
    const double x = ids.ids[a][first + d] - ids.ids[b][first + d];
    s += x * x;
  }
  return std::sqrt(s);
}

std::vector<double> distancesToVisual(const PositionIds& ids, std::size_t token) {
  std::vector<double> out;
  for (std::size_t v : ids.visualIndices()) out.push_back(tokenDistance(ids, token, v));
  return out;
}

PtdResult perTokenDistanceReference(const PositionIds& ids) {
  PtdResult r;
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  r.nText = text.size();
  r.nVisual = vis.size();
  if (text.empty() || vis.empty()) return r;
  std::vector<double> d(vis.size());
  double total = 0.0;
  for (std::size_t t : text) {
    for (std::size_t i = 0; i < vis.size(); ++i) d[i] = tokenDistance(ids, t, vis[i]);
    double mean = 0.0;
    const double mad = meanAbsDeviation(d.data(), d.size(), &mean);
    r.perText.push_back(mad);
    r.meanDistance.push_back(mean);
    total += mad;
  }
  r.ptd = total / static_cast<double>(text.size());
  return r;
}

PtdResult perTokenDistance(const PositionIds& ids, int threads) {
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  for (std::size_t t : text)
    if (!onDiagonal(ids.ids[t])) return perTokenDistanceReference(ids);
  PtdResult r;
  r.nText = text.size();
  r.nVisual = vis.size();
  if (text.empty() || vis.empty()) return r;
  const std::vector<CentredBlock> blocks = centredBlocks(ids, vis);
  const int dims = spaceDims(ids.space);
  r.perText.resize(text.size());
  r.meanDistance.resize(text.size());
  detail::parallelFor(text.size(), threads, [&](std::size_t begin, std::size_t end) {
    std::vector<double> d(vis.size());
    for (std::size_t t = begin; t < end; ++t) {
      diagonalDistances(blocks.data(), blocks.size(), dims, ids.ids[text[t]][0], d.data());
      r.perText[t] = meanAbsDeviation(d.data(), d.size(), &r.meanDistance[t]);
    }
  });
  r.ptd =
      std::accumulate(r.perText.begin(), r.perText.end(), 0.0) / static_cast<double>(text.size());
  return r;
}

Id3 displacement(const PositionIds& ids, std::size_t query, std::size_t key) {
  const Id3& a = ids.ids[query];
  const Id3& b = ids.ids[key];
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

std::vector<double> pairPhases(const PairTable& pairs, const Id3& delta) {
  std::vector<double> phase(pairs.size());
  for (int p = 0; p < pairs.size(); ++p)
    phase[p] =
        pairs.axis[p] == Axis::None ? 0.0 : pairs.theta[p] * delta[static_cast<int>(pairs.axis[p])];
  return phase;
}

double positionalBias(const PairTable& pairs, const Id3& delta) {
  double s = 0.0;
  for (double phi : pairPhases(pairs, delta)) s += std::cos(phi);
  return s / pairs.size();
}

std::vector<double> biasToVisual(const PositionIds& ids, const PairTable& pairs,
                                 std::size_t token) {
  std::vector<double> out;
  for (std::size_t v : ids.visualIndices())
    out.push_back(positionalBias(pairs, displacement(ids, token, v)));
  return out;
}

BiasResult biasSpreadReference(const PositionIds& ids, const PairTable& pairs) {
  BiasResult r;
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  if (text.empty() || vis.empty()) return r;
  double total = 0.0;
  for (std::size_t t : text) {
    const std::vector<double> b = biasToVisual(ids, pairs, t);
    double mean = 0.0;
    const double mad = meanAbsDeviation(b.data(), b.size(), &mean);
    r.perText.push_back(mad);
    r.meanBias.push_back(mean);
    total += mad;
  }
  r.spread = total / static_cast<double>(text.size());
  return r;
}

namespace {

// b(p, i) = sum over axes of F_a(p - v_ia), F_a(x) = (1/n) sum_{k in a} cos(theta_k x).
// Each axis keeps the distinct values v_ia of the visual tokens; per text token a table of F_a at
// p - value is built once and the visual tokens look it up. When every text id and every value
// of an axis is an integer, F_a is tabulated once over the integer range of p - value instead.
struct AxisTable {
  std::vector<double> theta;         // frequencies of the pairs on this axis
  std::vector<double> values;        // distinct visual coordinates
  std::vector<std::uint32_t> index;  // per visual token: index into values
  bool integral = false;
  long long lo = 0;  // integral: table covers p - value in [lo, lo + size)
  std::vector<double> byDiff;
  Eigen::MatrixXd trig;  // not integral: [cos(th_k v) | sin(th_k v)] per distinct value
};

constexpr std::size_t kChunk = 64;

double axisSum(const std::vector<double>& theta, double x) {
  double s = 0.0;
  for (double th : theta) s += std::cos(th * x);
  return s;
}

bool isInteger(double v) {
  return std::abs(v) < 4.0e15 && v == std::floor(v);
}

}  // namespace

BiasResult biasSpread(const PositionIds& ids, const PairTable& pairs, int threads) {
  const auto text = ids.textIndices(), vis = ids.visualIndices();
  for (std::size_t t : text)
    if (!onDiagonal(ids.ids[t])) return biasSpreadReference(ids, pairs);
  BiasResult r;
  if (text.empty() || vis.empty()) return r;
  const double n = pairs.size();
  double constant = 0.0;  // NoPE pairs: cos 0 = 1 each
  bool textIntegral = true;
  double pMin = ids.ids[text.front()][0], pMax = pMin;
  for (std::size_t t : text) {
    const double p = ids.ids[t][0];
    textIntegral = textIntegral && isInteger(p);
    pMin = std::min(pMin, p);
    pMax = std::max(pMax, p);
  }
  std::vector<AxisTable> axes;
  for (int a = 0; a < 3; ++a) {
    AxisTable ax;
    for (int p = 0; p < pairs.size(); ++p)
      if (static_cast<int>(pairs.axis[p]) == a) ax.theta.push_back(pairs.theta[p]);
    if (ax.theta.empty()) continue;
    ax.values.reserve(vis.size());
    for (std::size_t v : vis) ax.values.push_back(ids.ids[v][a]);
    std::sort(ax.values.begin(), ax.values.end());
    ax.values.erase(std::unique(ax.values.begin(), ax.values.end()), ax.values.end());
    ax.index.reserve(vis.size());
    for (std::size_t v : vis)
      ax.index.push_back(static_cast<std::uint32_t>(
          std::lower_bound(ax.values.begin(), ax.values.end(), ids.ids[v][a]) - ax.values.begin()));
    ax.integral = textIntegral && std::all_of(ax.values.begin(), ax.values.end(), isInteger);
    if (ax.integral) {
      const long long lo = static_cast<long long>(pMin - ax.values.back());
      const long long hi = static_cast<long long>(pMax - ax.values.front());
      if (hi - lo + 1 <= 8'000'000) {
        ax.lo = lo;
        ax.byDiff.resize(static_cast<std::size_t>(hi - lo + 1));
        for (long long x = lo; x <= hi; ++x)
          ax.byDiff[x - lo] = axisSum(ax.theta, static_cast<double>(x));
      } else {
        ax.integral = false;
      }
    }
    if (!ax.integral) {
      const int m = static_cast<int>(ax.theta.size());
      ax.trig.resize(static_cast<Eigen::Index>(ax.values.size()), 2 * m);
      for (std::size_t k = 0; k < ax.values.size(); ++k)
        for (int j = 0; j < m; ++j) {
          ax.trig(k, j) = std::cos(ax.theta[j] * ax.values[k]);
          ax.trig(k, m + j) = std::sin(ax.theta[j] * ax.values[k]);
        }
    }
    axes.push_back(std::move(ax));
  }
  for (int p = 0; p < pairs.size(); ++p)
    if (pairs.axis[p] == Axis::None) constant += 1.0;

  r.perText.resize(text.size());
  r.meanBias.resize(text.size());
  detail::parallelFor(text.size(), threads, [&](std::size_t begin, std::size_t end) {
    std::vector<double> b(vis.size());
    std::vector<std::vector<double>> local(axes.size());
    std::vector<Eigen::MatrixXd> chunkLut(axes.size());
    std::size_t chunkBegin = begin;
    for (std::size_t t = begin; t < end; ++t) {
      if (t - chunkBegin == kChunk) chunkBegin = t;
      const double p = ids.ids[text[t]][0];
      std::fill(b.begin(), b.end(), constant);
      for (std::size_t ai = 0; ai < axes.size(); ++ai) {
        const AxisTable& ax = axes[ai];
        if (ax.integral) {
          const double* table = ax.byDiff.data() + (static_cast<long long>(p) - ax.lo);
          // table[-value] = F(p - value); values are integers.
          std::vector<double>& lut = local[ai];
          lut.resize(ax.values.size());
          for (std::size_t k = 0; k < ax.values.size(); ++k)
            lut[k] = table[-static_cast<long long>(ax.values[k])];
        } else {
          // cos(th (p - v)) = cos(th p) cos(th v) + sin(th p) sin(th v): one GEMM per chunk of
          // text tokens against the precomputed visual side.
          const std::size_t c = t - chunkBegin;
          if (c == 0) {
            const std::size_t cols = std::min<std::size_t>(kChunk, end - t);
            const int m = static_cast<int>(ax.theta.size());
            Eigen::MatrixXd x(2 * m, cols);
            for (std::size_t j = 0; j < cols; ++j) {
              const double pj = ids.ids[text[t + j]][0];
              for (int k = 0; k < m; ++k) {
                x(k, j) = std::cos(ax.theta[k] * pj);
                x(m + k, j) = std::sin(ax.theta[k] * pj);
              }
            }
            chunkLut[ai].noalias() = ax.trig * x;
          }
          local[ai].assign(chunkLut[ai].col(c).data(),
                           chunkLut[ai].col(c).data() + ax.values.size());
        }
        const std::vector<double>& lut = local[ai];
        const std::uint32_t* idx = ax.index.data();
        for (std::size_t i = 0; i < vis.size(); ++i) b[i] += lut[idx[i]];
      }
      for (double& x : b) x /= n;
      r.perText[t] = meanAbsDeviation(b.data(), b.size(), &r.meanBias[t]);
    }
  });
  r.spread =
      std::accumulate(r.perText.begin(), r.perText.end(), 0.0) / static_cast<double>(text.size());
  return r;
}

}  // namespace ropescope
