// Distances, PTD and positional bias. The fast paths use the fact that text ids lie on the
// diagonal (p, p, p); the reference paths are the definitions written out, used by the tests.
#include "ropescope/metrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "bias_product_blocks.h"
#include "kernels/bias_absdev.h"
#include "kernels/bias_gemm.h"
#include "kernels/metric_kernels.h"
#include "kernels/step_trig.h"
#include "parallel.h"
#include "progress_meter.h"
#include "ptd_chunks.h"
#include "ropescope/large_buffer.h"
#include "space_coordinates.h"

namespace ropescope {

using detail::spaceCoordinate;
using detail::spaceDims;

namespace {

bool onDiagonal(const Id3& id) {
  return id[0] == id[1] && id[1] == id[2];
}

// Mean absolute deviation of v around its mean; writes the mean too. The sum is compensated
// (Neumaier): when all values are nearly equal (circle PTD), the deviation is of the order of
// the mean's rounding error, and a plain left-to-right sum would make the reference's answer
// depend on its summation order by far more than the fast paths' vectorised sums do.
double meanAbsDeviation(const double* v, std::size_t n, double* meanOut) {
  double sum = 0.0, comp = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = sum + v[i];
    comp += std::abs(sum) >= std::abs(v[i]) ? (sum - t) + v[i] : (v[i] - t) + sum;
    sum = t;
  }
  sum += comp;
  const double mean = sum / static_cast<double>(n);
  double dev = 0.0;
  for (std::size_t i = 0; i < n; ++i) dev += std::abs(v[i] - mean);
  *meanOut = mean;
  return dev / static_cast<double>(n);
}

}  // namespace

double tokenDistance(const PositionIds& ids, std::size_t a, std::size_t b) {
  const int dims = spaceDims(ids.space);
  double s = 0.0;
  for (int d = 0; d < dims; ++d) {
    const double x =
        spaceCoordinate(ids.ids[a], ids.space, d) - spaceCoordinate(ids.ids[b], ids.space, d);
    s += x * x;
  }
  return std::sqrt(s);
}

std::vector<double> distancesTo(const PositionIds& ids, std::size_t token,
                                const std::vector<std::size_t>& to) {
  std::vector<double> out;
  out.reserve(to.size());
  for (std::size_t v : to) out.push_back(tokenDistance(ids, token, v));
  return out;
}

std::vector<double> distancesToVisual(const PositionIds& ids, std::size_t token) {
  return distancesTo(ids, token, ids.visualIndices());
}

std::string undefinedMetricReason(const std::string& metric, std::size_t nFrom, std::size_t nTo,
                                  GroupPair g) {
  if (nFrom > 0 && nTo > 0) return {};
  const std::string from = tokenGroupName(g.from), to = tokenGroupName(g.to);
  return metric + " needs at least one " + from + " and one " + to + " token (layout has " +
         std::to_string(nFrom) + " " + from + ", " + std::to_string(nTo) + " " + to + ")";
}

std::string missingTokensText(std::size_t nFrom, std::size_t nTo, GroupPair g) {
  if (nFrom > 0 && nTo > 0) return {};
  const std::string from = tokenGroupName(g.from), to = tokenGroupName(g.to);
  if (nFrom == 0 && nTo == 0) return "no " + from + " or " + to + " token";
  return "no " + (nFrom == 0 ? from : to) + " token";
}

namespace {
// The two groups' tokens, after checking that they do not overlap.
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> groupTokens(const PositionIds& ids,
                                                                          GroupPair g) {
  checkGroupPair(g);
  return {groupIndices(ids, g.from), groupIndices(ids, g.to)};
}
}  // namespace

PtdResult perTokenDistanceReference(const PositionIds& ids, GroupPair g, const Progress& progress) {
  PtdResult r;
  const auto groups = groupTokens(ids, g);
  const std::vector<std::size_t>&text = groups.first, &vis = groups.second;
  r.nText = text.size();
  r.nVisual = vis.size();
  r.undefinedReason = undefinedMetricReason("PTD", r.nText, r.nVisual, g);
  if (!r.defined()) return r;
  detail::ProgressMeter meter(progress, text.size());
  std::vector<double> d(vis.size());
  double total = 0.0;
  for (std::size_t t : text) {
    if (!meter.step(0)) break;
    for (std::size_t i = 0; i < vis.size(); ++i) d[i] = tokenDistance(ids, t, vis[i]);
    double mean = 0.0;
    const double mad = meanAbsDeviation(d.data(), d.size(), &mean);
    r.perText.push_back(mad);
    r.meanDistance.push_back(mean);
    total += mad;
    meter.step();
  }
  meter.finish("PTD");
  r.ptd = total / static_cast<double>(text.size());
  return r;
}

PtdResult perTokenDistance(const PositionIds& ids, int threads, GroupPair g,
                           const Progress& progress) {
  // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture
  // bindings in the lambdas below.
  const auto groups = groupTokens(ids, g);
  const std::vector<std::size_t>&text = groups.first, &vis = groups.second;
  for (std::size_t t : text)
    if (!onDiagonal(ids.ids[t])) return perTokenDistanceReference(ids, g, progress);
  PtdResult r;
  r.nText = text.size();
  r.nVisual = vis.size();
  r.undefinedReason = undefinedMetricReason("PTD", r.nText, r.nVisual, g);
  if (!r.defined()) return r;
  detail::ProgressMeter meter(progress, text.size());
  detail::chunkedPtd(ids, text, vis, threads, meter, r);
  meter.finish("PTD");
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
    phase[p] = pairs.theta[p] * axisCoordinate(pairs.axis[p], delta);
  return phase;
}

double positionalBias(const PairTable& pairs, const Id3& delta) {
  double s = 0.0;
  for (double phi : pairPhases(pairs, delta)) s += std::cos(phi);
  return s / pairs.size();
}

// positionalBias for every visual token, bit for bit: a pair's cosine depends on the visual token
// only through its coordinate on the pair's axis, so it is taken once per distinct coordinate
// (an image grid has few) and the per-token sums run over the pairs in the same order.
std::vector<double> biasToVisual(const PositionIds& ids, const PairTable& pairs,
                                 std::size_t token) {
  return biasTo(ids, pairs, token, ids.visualIndices());
}

std::vector<double> biasTo(const PositionIds& ids, const PairTable& pairs, std::size_t token,
                           const std::vector<std::size_t>& vis) {
  const int n = pairs.size();
  std::array<std::vector<double>, 4> values;
  std::array<std::vector<std::uint32_t>, 4> index;
  for (int a = 0; a < 4; ++a) {
    const Axis axis = kCoordinateAxes[a];
    if (std::find(pairs.axis.begin(), pairs.axis.end(), axis) == pairs.axis.end()) continue;
    for (std::size_t v : vis) values[a].push_back(axisCoordinate(axis, ids.ids[v]));
    std::sort(values[a].begin(), values[a].end());
    values[a].erase(std::unique(values[a].begin(), values[a].end()), values[a].end());
    for (std::size_t v : vis)
      index[a].push_back(static_cast<std::uint32_t>(
          std::lower_bound(values[a].begin(), values[a].end(), axisCoordinate(axis, ids.ids[v])) -
          values[a].begin()));
  }
  std::vector<double> sum(vis.size(), 0.0), cosines;
  for (int p = 0; p < n; ++p) {
    if (pairs.axis[p] == Axis::None) {
      for (double& x : sum) x += std::cos(0.0);
      continue;
    }
    const int a = coordinateSlot(pairs.axis[p]);
    const double own = axisCoordinate(pairs.axis[p], ids.ids[token]);
    cosines.resize(values[a].size());
    for (std::size_t k = 0; k < values[a].size(); ++k)
      cosines[k] = std::cos(pairs.theta[p] * (own - values[a][k]));
    const std::uint32_t* idx = index[a].data();
    for (std::size_t i = 0; i < vis.size(); ++i) sum[i] += cosines[idx[i]];
  }
  for (double& x : sum) x /= n;
  return sum;
}

BiasResult biasSpreadReference(const PositionIds& ids, const PairTable& pairs, GroupPair g,
                               const Progress& progress) {
  BiasResult r;
  // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture
  // bindings in the lambdas below.
  const auto groups = groupTokens(ids, g);
  const std::vector<std::size_t>&text = groups.first, &vis = groups.second;
  r.undefinedReason = undefinedMetricReason("bias spread", text.size(), vis.size(), g);
  if (!r.defined()) return r;
  detail::ProgressMeter meter(progress, text.size());
  double total = 0.0;
  for (std::size_t t : text) {
    if (!meter.step(0)) break;
    const std::vector<double> b = biasTo(ids, pairs, t, vis);
    double mean = 0.0;
    const double mad = meanAbsDeviation(b.data(), b.size(), &mean);
    r.perText.push_back(mad);
    r.meanBias.push_back(mean);
    total += mad;
    meter.step();
  }
  meter.finish("bias spread");
  r.spread = total / static_cast<double>(text.size());
  return r;
}

namespace {

// b(p, i) = c + sum over axes of F_a(p - v_ia), F_a(x) = (1/n) sum_{k in a} cos(theta_k x),
// c = (NoPE pairs) / n. Each axis keeps the distinct values v_ia of the visual tokens; per text
// token a table of F_a at p - value is built once and the visual tokens look it up, in one fused
// pass that also sums b (metric_kernels). When every text id and every value of an axis is an
// integer, F_a is tabulated once over the integer range of p - value instead. The 1/n is folded
// into the tables so no per-token division remains.
struct AxisTable {
  std::vector<double> theta;             // frequencies of the pairs on this axis
  std::span<const double> values;        // distinct visual coordinates (the TokenAxisIndex's)
  std::span<const std::uint32_t> index;  // per visual token: index into values
  bool integral = false;
  long long lo = 0;  // integral: table covers p - value in [lo, lo + size)
  std::vector<double> byDiff;
  // Not integral: column-major values x 2m, [cos(th_k v) | sin(th_k v)] / n per distinct value.
  std::vector<double> trig;
};

// Text tokens per GEMM: large enough that the product runs near the CPU's peak, small enough that
// a chunk's tables (values x chunk per axis) stay in the L2 cache.
constexpr std::size_t kChunk = 128;
// Each thread holds its chunk's tables, values x chunk doubles per non-integral axis. With 250k
// distinct values on three axes (a cone of a 500x500 picture) 128 columns were 768 MB per
// thread, so memory grew with the core count; the chunk narrows to keep this under 64 MB per
// thread (never under 8 columns). It depends on the scene only, never on the thread count, so
// the result stays bit-identical for any number of threads.
constexpr std::size_t kChunkTableBudget = std::size_t(8) << 20;  // doubles per thread
constexpr std::size_t kMinChunk = 8;

std::size_t chunkFor(std::size_t nonIntegralValues) {
  if (nonIntegralValues == 0) return kChunk;
  return std::clamp(kChunkTableBudget / nonIntegralValues, kMinChunk, kChunk);
}

// Text tokens per fused GEMM: detail::kBiasGemmChunk, narrowed to the same per-thread budget as
// chunkFor when there are very many visual tokens.
std::size_t fusedChunkFor(std::size_t visual) {
  return std::clamp(kChunkTableBudget / std::max<std::size_t>(visual, 1), kMinChunk,
                    static_cast<std::size_t>(detail::kBiasGemmChunk));
}

double axisSum(const std::vector<double>& theta, double x) {
  double s = 0.0;
  for (double th : theta) s += std::cos(th * x);
  return s;
}

bool isInteger(double v) {
  return std::abs(v) < 4.0e15 && v == std::floor(v);
}

// When every axis needs the product (no integer tables) and the visual tokens share few values,
// the per-axis products are as large as one product over all pairs per visual token: then
// b(p, i) = base + sum_k [cos(th_k p) cos(th_k v_ik) + sin(th_k p) sin(th_k v_ik)] / n is one
// GEMM of (visual x 2n) by (2n x text chunk), inner dimension 2n instead of 2 m_a, and a column
// of it is b minus base, with no lookups. (Circle-RoPE: every visual token has its own values.)
bool fusedPays(const std::vector<AxisTable>& axes, std::size_t visual) {
  if (axes.empty()) return false;
  std::size_t perAxis = 0, fused = 0;
  for (const AxisTable& ax : axes) {
    if (ax.integral) return false;
    perAxis += ax.values.size() * ax.theta.size();
    fused += visual * ax.theta.size();
  }
  // The visual side is visual x 2m doubles on top of the per-axis tables: bounded like them.
  return 4 * fused <= 5 * perAxis && fused <= kChunkTableBudget;
}

// Memory for the fused product's visual side. A drag updates the scene many times a second and
// fresh memory is slow to fault in on a virtual machine (clearing the two huge pages of a
// 4096-token circle scene took ~1 ms of kernel time an update on the 2-core development
// machine), so each thread keeps the last one, up to kKeptPanelBytes, for its next update (for
// the life of the thread: the GUI's and its workers' threads keep at most that much each). A
// call nested on the same thread while the memory is in use (none does today) would get memory
// of its own. Not zero-filled: every value, padding included, is written by the caller.
constexpr std::size_t kKeptPanelBytes = std::size_t{8} << 20;

class PanelMemory {
 public:
  explicit PanelMemory(std::size_t count) {
    if (count * sizeof(double) <= kKeptPanelBytes && !kept().inUse) {
      Kept& k = kept();
      if (k.buffer.size() < count) k.buffer = LargeBuffer<double>(count);
      k.inUse = true;
      data_ = k.buffer.data();
      borrowed_ = true;
    } else {
      own_ = LargeBuffer<double>(count);
      data_ = own_.data();
    }
  }
  ~PanelMemory() {
    if (borrowed_) kept().inUse = false;
  }
  PanelMemory(const PanelMemory&) = delete;
  PanelMemory& operator=(const PanelMemory&) = delete;
  double* data() const { return data_; }

 private:
  struct Kept {
    LargeBuffer<double> buffer;
    bool inUse = false;
  };
  static Kept& kept() {
    thread_local Kept k;
    return k;
  }
  LargeBuffer<double> own_;
  double* data_ = nullptr;
  bool borrowed_ = false;
};

void fusedBiasSpread(const PositionIds& ids, const std::vector<std::size_t>& text,
                     const std::vector<AxisTable>& axes, std::size_t visual, double base,
                     int threads, detail::ProgressMeter& meter, BiasResult& r) {
  std::vector<double> theta;
  for (const AxisTable& ax : axes) theta.insert(theta.end(), ax.theta.begin(), ax.theta.end());
  const std::size_t m = theta.size(), inner = 2 * m;
  // Visual side, column-major visual x 2m: each axis's distinct-value table spread per token.
  // Pair k of the concatenation: its axis and its row in that axis's table.
  std::vector<std::pair<const AxisTable*, std::size_t>> pairOf;
  for (const AxisTable& ax : axes)
    for (std::size_t j = 0; j < ax.theta.size(); ++j) pairOf.emplace_back(&ax, j);
  const detail::MetricKernels& kern = detail::metricKernels();
  const detail::BiasGemmFn gemm = detail::biasGemm();
  // With AVX-512 the product and the deviation sum are one kernel that never stores the product;
  // it reads the visual side packed in panels, Eigen reads it column-major.
  const detail::BiasAbsDevFn absDev = detail::biasAbsDev();
  PanelMemory panels(absDev ? detail::biasPanelSize(visual, inner) : visual * inner);
  double* const ap = panels.data();
  // Sum over the visual tokens of each column of a: a text token's sum of b is then a dot
  // product of length 2m instead of a pass over its column.
  std::vector<double> colSum(inner);
  detail::parallelFor(m, threads, [&](std::size_t kb, std::size_t ke) {
    for (std::size_t k = kb; k < ke; ++k) {
      const AxisTable& ax = *pairOf[k].first;
      const std::size_t j = pairOf[k].second, ma = ax.theta.size(), rows = ax.values.size();
      const double* cosVal = ax.trig.data() + j * rows;
      const double* sinVal = ax.trig.data() + (ma + j) * rows;
      const std::uint32_t* index = ax.index.data();
      double cosSum = 0.0, sinSum = 0.0;
      // A panel's rows of one column lie next to each other (and a whole column, without
      // panels): runs of kBiasPanelRows contiguous stores.
      constexpr auto kRun = static_cast<std::size_t>(detail::kBiasPanelRows);
      for (std::size_t i0 = 0; i0 < visual; i0 += kRun) {
        const std::size_t len = std::min(kRun, visual - i0);
        double* const cosTo =
            ap + (absDev ? detail::biasPanelIndex(i0, k, inner) : k * visual + i0);
        double* const sinTo =
            ap + (absDev ? detail::biasPanelIndex(i0, m + k, inner) : (m + k) * visual + i0);
        for (std::size_t r = 0; r < len; ++r) {
          const double c = cosVal[index[i0 + r]], s = sinVal[index[i0 + r]];
          cosSum += c;
          sinSum += s;
          cosTo[r] = c;
          sinTo[r] = s;
        }
        if (absDev)  // the last panel's rows past `visual` (the memory may be reused)
          for (std::size_t r = len; r < kRun; ++r) cosTo[r] = sinTo[r] = 0.0;
      }
      colSum[k] = cosSum;
      colSum[m + k] = sinSum;
    }
  });
  const double nVis = static_cast<double>(visual);
  r.perText.resize(text.size());
  r.meanBias.resize(text.size());
  // Whole chunks per thread: a chunk's GEMM (and its rounding) never depends on the thread count.
  const std::size_t chunk = fusedChunkFor(visual);
  const std::size_t chunks = (text.size() + chunk - 1) / chunk;
  const std::size_t paddedChunk =
      (chunk + detail::kBiasPanelCols - 1) / detail::kBiasPanelCols * detail::kBiasPanelCols;
  // With the fused kernel a chunk needs little scratch: one chunk at a time to whichever thread
  // is free (a vCPU that the host slows takes fewer); Eigen's product needs a visual x chunk
  // block, so one range per thread then.
  const std::size_t pieces =
      absDev ? chunks : static_cast<std::size_t>(detail::resolveThreads(threads));
  detail::parallelForPieces(
      chunks, pieces, threads, [&](std::size_t chunkFirst, std::size_t chunkLast) {
        std::vector<double> x(inner * paddedChunk, 0.0), positions(chunk), shift(chunk), dev(chunk);
        std::vector<double> out(absDev ? 0 : visual * chunk);
        for (std::size_t c = chunkFirst; c < chunkLast; ++c) {
          if (meter.stopped()) return;
          const std::size_t t0 = c * chunk, cols = std::min(chunk, text.size() - t0);
          for (std::size_t j = 0; j < cols; ++j) positions[j] = ids.ids[text[t0 + j]][0];
          detail::stepTrigTable(positions.data(), cols, theta.data(), m, inner, x.data());
          for (std::size_t j = 0; j < cols; ++j) {
            const double* xj = x.data() + j * inner;
            double sum = 0.0;
            for (std::size_t k = 0; k < inner; ++k) sum += colSum[k] * xj[k];
            shift[j] = sum / nVis;  // mean of b minus base
            r.meanBias[t0 + j] = base + shift[j];
          }
          if (absDev) {
            absDev(ap, static_cast<std::ptrdiff_t>(visual), static_cast<std::ptrdiff_t>(inner),
                   x.data(), static_cast<std::ptrdiff_t>(cols), shift.data(), dev.data());
          } else {
            gemm(ap, x.data(), static_cast<std::ptrdiff_t>(visual),
                 static_cast<std::ptrdiff_t>(inner), static_cast<std::ptrdiff_t>(cols), out.data());
            for (std::size_t j = 0; j < cols; ++j)
              dev[j] = kern.absDeviation(out.data() + j * visual, visual, shift[j]);
          }
          for (std::size_t j = 0; j < cols; ++j) r.perText[t0 + j] = dev[j] / nVis;
          if (!meter.step(cols)) return;
        }
      });
  r.spread =
      std::accumulate(r.perText.begin(), r.perText.end(), 0.0) / static_cast<double>(text.size());
}

BiasResult biasSpreadIndexed(const PositionIds& ids, const PairTable& pairs,
                             const TokenAxisIndex* given, int threads, GroupPair g,
                             const Progress& progress) {
  // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture
  // bindings in the lambdas below.
  const auto groups = groupTokens(ids, g);
  const std::vector<std::size_t>&text = groups.first, &vis = groups.second;
  std::array<bool, 4> used{};
  for (std::size_t a = 0; a < used.size(); ++a)
    for (int p = 0; p < pairs.size(); ++p) used[a] = used[a] || pairs.axis[p] == kCoordinateAxes[a];
  if (given)
    for (std::size_t a = 0; a < used.size(); ++a)
      if (used[a] && (given->tokens != vis.size() || given->index[a].size() != vis.size()))
        throw std::invalid_argument("bias spread: the index given covers " +
                                    std::to_string(given->index[a].size()) + " tokens on axis " +
                                    std::to_string(a) + ", the group has " +
                                    std::to_string(vis.size()));
  for (std::size_t t : text)
    if (!onDiagonal(ids.ids[t])) return biasSpreadReference(ids, pairs, g, progress);
  BiasResult r;
  r.undefinedReason = undefinedMetricReason("bias spread", text.size(), vis.size(), g);
  if (!r.defined()) return r;
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
  TokenAxisIndex own;
  if (!given) own = tokenAxisIndex(ids, vis, threads, used);
  const TokenAxisIndex& visual = given ? *given : own;
  std::vector<AxisTable> axes;
  for (std::size_t a = 0; a < used.size(); ++a) {
    if (!used[a]) continue;
    const Axis axis = kCoordinateAxes[a];
    AxisTable ax;
    for (int p = 0; p < pairs.size(); ++p)
      if (pairs.axis[p] == axis) ax.theta.push_back(pairs.theta[p]);
    ax.values = visual.values[a];
    ax.index = visual.index[a];
    ax.integral = textIntegral && std::all_of(ax.values.begin(), ax.values.end(), isInteger);
    if (ax.integral) {
      const long long lo = static_cast<long long>(pMin - ax.values.back());
      const long long hi = static_cast<long long>(pMax - ax.values.front());
      if (hi - lo + 1 <= 8'000'000) {
        ax.lo = lo;
        ax.byDiff.resize(static_cast<std::size_t>(hi - lo + 1));
        for (long long x = lo; x <= hi; ++x)
          ax.byDiff[x - lo] = axisSum(ax.theta, static_cast<double>(x)) / n;
      } else {
        ax.integral = false;
      }
    }
    if (!ax.integral) {
      const std::size_t m = ax.theta.size(), rows = ax.values.size();
      ax.trig.resize(rows * 2 * m);
      // One column per pair, each written by one thread: the same bits for any count.
      const detail::MetricKernels& kern = detail::metricKernels();
      detail::parallelFor(m, threads, [&ax, &kern, rows, m, n](std::size_t jb, std::size_t je) {
        for (std::size_t j = jb; j < je; ++j)
          kern.trigTable(ax.values.data(), rows, ax.theta[j], n, ax.trig.data() + j * rows,
                         ax.trig.data() + (m + j) * rows);
      });
    }
    axes.push_back(std::move(ax));
  }
  for (int p = 0; p < pairs.size(); ++p)
    if (pairs.axis[p] == Axis::None) constant += 1.0;
  const double base = constant / n;
  detail::ProgressMeter meter(progress, text.size());
  if (fusedPays(axes, vis.size())) {
    fusedBiasSpread(ids, text, axes, vis.size(), base, threads, meter, r);
    meter.finish("bias spread");
    return r;
  }
  // Runs of visual tokens along which only the last axis's index moves, by one per token (the
  // rows of an image or frame): the lookups become contiguous loads. Kept when runs are long
  // enough to beat gathers.
  std::vector<std::uint32_t> runStart;
  if (!axes.empty()) {
    runStart.push_back(0);
    for (std::size_t i = 1; i < vis.size(); ++i) {
      bool continues = axes.back().index[i] == axes.back().index[i - 1] + 1;
      for (std::size_t ai = 0; ai + 1 < axes.size(); ++ai)
        continues = continues && axes[ai].index[i] == axes[ai].index[i - 1];
      if (!continues) runStart.push_back(static_cast<std::uint32_t>(i));
    }
    runStart.push_back(static_cast<std::uint32_t>(vis.size()));
    if ((runStart.size() - 1) * 8 > vis.size()) runStart.clear();
  }
  const detail::MetricKernels& kern = detail::metricKernels();
  const detail::BiasGemmFn gemm = detail::biasGemm();
  const double nVis = static_cast<double>(vis.size());
  // Every block a whole grid and one of them a long video: its deviation from sorted row + col
  // sums, once per frame, instead of token by token (bias_product_blocks.h).
  std::array<int, 3> slotOf{-1, -1, -1};  // t, h, w: position in axes, -1 without pairs
  std::vector<detail::ProductBlock> products;
  if (!used[3]) {
    std::array<const std::uint32_t*, 3> axisIndex{};
    for (std::size_t a = 0, ai = 0; a < 3; ++a)
      if (used[a]) {
        slotOf[a] = static_cast<int>(ai);
        axisIndex[a] = axes[ai++].index.data();
      }
    products = detail::productBlocks(ids, vis, axisIndex);
    if (std::none_of(products.begin(), products.end(), [](const detail::ProductBlock& b) {
          return b.frames >= detail::kSortedFrames;
        }))
      products.clear();
  }

  r.perText.resize(text.size());
  r.meanBias.resize(text.size());
  // Threads take whole chunks, so a chunk's GEMM (and its rounding) does not depend on the
  // thread count.
  std::size_t tableValues = 0;
  for (const AxisTable& ax : axes)
    if (!ax.integral) tableValues += ax.values.size();
  const std::size_t chunk = chunkFor(tableValues);
  const std::size_t chunks = (text.size() + chunk - 1) / chunk;
  detail::parallelFor(chunks, threads, [&](std::size_t chunkFirst, std::size_t chunkLast) {
    const std::size_t begin = chunkFirst * chunk, end = std::min(text.size(), chunkLast * chunk);
    std::vector<double> b(vis.size());
    std::vector<std::vector<double>> local(axes.size());
    std::vector<std::vector<double>> chunkLut(axes.size());
    std::vector<double> x, positions, scratch;
    const double* lut[4] = {};
    const std::uint32_t* idx[4] = {};
    for (std::size_t ai = 0; ai < axes.size(); ++ai) idx[ai] = axes[ai].index.data();
    std::size_t chunkBegin = begin;
    for (std::size_t t = begin; t < end; ++t) {
      if (!meter.step(t == begin ? 0 : 1)) return;
      if (t - chunkBegin == chunk) chunkBegin = t;
      const double p = ids.ids[text[t]][0];
      for (std::size_t ai = 0; ai < axes.size(); ++ai) {
        const AxisTable& ax = axes[ai];
        const std::size_t rows = ax.values.size();
        if (ax.integral) {
          const double* table = ax.byDiff.data() + (static_cast<long long>(p) - ax.lo);
          // table[-value] = F(p - value); values are integers.
          std::vector<double>& l = local[ai];
          l.resize(rows);
          for (std::size_t k = 0; k < rows; ++k)
            l[k] = table[-static_cast<long long>(ax.values[k])];
          lut[ai] = l.data();
        } else {
          // cos(th (p - v)) = cos(th p) cos(th v) + sin(th p) sin(th v): one GEMM per chunk of
          // text tokens against the precomputed visual side.
          const std::size_t c = t - chunkBegin;
          if (c == 0) {
            const std::size_t cols = std::min<std::size_t>(chunk, end - t);
            const std::size_t m = ax.theta.size();
            x.resize(2 * m * cols);
            positions.resize(cols);
            for (std::size_t j = 0; j < cols; ++j) positions[j] = ids.ids[text[t + j]][0];
            detail::stepTrigTable(positions.data(), cols, ax.theta.data(), m, 2 * m, x.data());
            chunkLut[ai].resize(rows * cols);
            gemm(ax.trig.data(), x.data(), static_cast<std::ptrdiff_t>(rows),
                 static_cast<std::ptrdiff_t>(2 * m), static_cast<std::ptrdiff_t>(cols),
                 chunkLut[ai].data());
          }
          lut[ai] = chunkLut[ai].data() + c * rows;
        }
      }
      if (!products.empty()) {
        std::array<const double*, 3> byAxis{};
        for (int a = 0; a < 3; ++a) byAxis[a] = slotOf[a] < 0 ? nullptr : lut[slotOf[a]];
        const double mean = detail::productBlocksSum(products, byAxis, base) / nVis;
        r.meanBias[t] = mean;
        r.perText[t] =
            detail::productBlocksAbsDeviation(products, byAxis, base, mean, scratch) / nVis;
        continue;
      }
      const int nAxes = static_cast<int>(axes.size());
      const double mean =
          (runStart.empty() ? kern.gatherSum(lut, idx, nAxes, base, vis.size(), b.data())
                            : kern.runSum(lut, idx, nAxes, base, runStart.data(),
                                          runStart.size() - 1, b.data())) /
          nVis;
      r.meanBias[t] = mean;
      r.perText[t] = kern.absDeviation(b.data(), b.size(), mean) / nVis;
    }
    meter.step(end > begin ? 1 : 0);
  });
  meter.finish("bias spread");
  r.spread =
      std::accumulate(r.perText.begin(), r.perText.end(), 0.0) / static_cast<double>(text.size());
  return r;
}

}  // namespace

BiasResult biasSpread(const PositionIds& ids, const PairTable& pairs, int threads, GroupPair g,
                      const Progress& progress) {
  return biasSpreadIndexed(ids, pairs, nullptr, threads, g, progress);
}

BiasResult biasSpread(const PositionIds& ids, const PairTable& pairs, const TokenAxisIndex& toIndex,
                      int threads, GroupPair g, const Progress& progress) {
  return biasSpreadIndexed(ids, pairs, &toIndex, threads, g, progress);
}

}  // namespace ropescope
