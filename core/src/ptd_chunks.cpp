// PTD by chunks of visual tokens: the moments of each chunk, the two series forms, and the
// two-pass sum over chunks per text token (docs/math.md#ptd-at-scale).
#include "ptd_chunks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "kernels/metric_kernels.h"
#include "parallel.h"
#include "progress_meter.h"
#include "space_coordinates.h"

namespace ropescope::detail {

namespace {

constexpr int K = kSeriesOrder;

// binom(1/2, k): the coefficients of sqrt(1 + e) = sum_k c_k e^k.
constexpr std::array<double, K + 1> halfBinomials() {
  std::array<double, K + 1> c{};
  c[0] = 1.0;
  for (int k = 1; k <= K; ++k) c[k] = c[k - 1] * (0.5 - (k - 1)) / k;
  return c;
}
constexpr std::array<double, K + 1> kHalf = halfBinomials();

// binom(n, r) for n, r <= 2K (exact in doubles).
double binomial(int n, int r) {
  double v = 1.0;
  for (int i = 1; i <= r; ++i) v = v * (n - r + i) / i;
  return v;
}

// Sorts the coefficient tuples by their bit patterns and merges runs of identical ones.
template <std::size_t N>
void dedupe(std::vector<std::array<std::uint64_t, N>>& keys, std::vector<double>& w) {
  std::sort(keys.begin(), keys.end());
  std::size_t out = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (out > 0 && keys[i] == keys[out - 1]) {
      w.back() += 1.0;
      continue;
    }
    keys[out] = keys[i];
    w.push_back(1.0);
    ++out;
  }
  keys.resize(out);
}

// One chunk from its tokens (indices into ids): centre, centroid, radius, entries, series.
void addChunk(const PositionIds& ids, const std::vector<std::size_t>& tokens, PtdChunks& out) {
  const int dims = out.dims;
  const std::size_t n = tokens.size();
  PtdChunk c;
  std::array<double, 4> g{};
  double sum = 0.0;
  for (std::size_t t : tokens)
    for (int d = 0; d < dims; ++d) {
      const double v = spaceCoordinate(ids.ids[t], ids.space, d);
      sum += v;
      g[d] += v;
    }
  c.x0 = sum / static_cast<double>(n * dims);
  for (int d = 0; d < dims; ++d) {
    g[d] /= static_cast<double>(n);
    c.sigma += (g[d] - c.x0) * (g[d] - c.x0);
    c.gammaSum += g[d] - c.x0;
  }
  double r2 = 0.0;
  for (std::size_t t : tokens) {
    double s = 0.0;
    for (int d = 0; d < dims; ++d) {
      const double e = spaceCoordinate(ids.ids[t], ids.space, d) - g[d];
      s += e * e;
    }
    r2 = std::max(r2, s);
  }
  c.radius = std::sqrt(r2);
  c.count = static_cast<double>(n);
  c.first = out.w.size();
  if (dims == 1) {
    std::vector<std::array<std::uint64_t, 1>> keys;
    for (std::size_t t : tokens)
      keys.push_back(
          {std::bit_cast<std::uint64_t>(spaceCoordinate(ids.ids[t], ids.space, 0) - c.x0)});
    dedupe(keys, out.w);
    for (const auto& key : keys) {
      const double u = std::bit_cast<double>(key[0]);
      out.line.push_back(u);
      out.a.push_back(-2.0 * u);
      out.b.push_back(u * u);
    }
  } else {
    std::vector<std::array<std::uint64_t, 2>> keys;
    for (std::size_t t : tokens) {
      // Summed in sorted order, so tokens whose centred coordinates are permutations of each
      // other ((r, c) and (c, r) of a grid) get bitwise-equal coefficients.
      std::array<double, 4> e{};
      for (int d = 0; d < dims; ++d) e[d] = spaceCoordinate(ids.ids[t], ids.space, d) - c.x0;
      auto order = [&e](int i, int j) {
        if (e[j] < e[i]) std::swap(e[i], e[j]);
      };
      if (dims == 4) {  // sorting networks for dims = 4, 2 and 3
        order(0, 1);
        order(2, 3);
        order(0, 2);
        order(1, 3);
        order(1, 2);
      } else {
        order(0, 1);
        if (dims == 3) {
          order(1, 2);
          order(0, 1);
        }
      }
      double s = 0.0, q = 0.0;
      for (int d = 0; d < dims; ++d) {
        s += e[d];
        q += e[d] * e[d];
      }
      keys.push_back({std::bit_cast<std::uint64_t>(-2.0 * s), std::bit_cast<std::uint64_t>(q)});
    }
    dedupe(keys, out.w);
    for (const auto& key : keys) {
      out.a.push_back(std::bit_cast<double>(key[0]));
      out.b.push_back(std::bit_cast<double>(key[1]));
    }
  }
  c.size = out.w.size() - c.first;
  // Moments M[i][l] = sum_j w_j a_j^i g_j^l, a_j = sum of the centred coordinates,
  // g_j = b_j - sigma, for i + l <= K.
  std::array<double, (K + 1) * (K + 1)> M{};
  for (std::size_t j = c.first; j < c.first + c.size; ++j) {
    const double a = -0.5 * out.a[j], gj = out.b[j] - c.sigma;
    c.maxA = std::max(c.maxA, std::abs(a));
    c.maxB = std::max(c.maxB, out.b[j]);
    c.maxG = std::max(c.maxG, std::abs(gj));
    double ap = out.w[j];
    for (int i = 0; i <= K; ++i) {
      double term = ap;
      for (int l = 0; l + i <= K; ++l) {
        M[i * (K + 1) + l] += term;
        term *= gj;
      }
      ap *= a;
    }
  }
  // Centroid form: sqrt(D^2 (1 + e)), e = (-2 u a + g) / D^2, so sum_j d_j =
  // D sum_k c_k D^-2k sum_i binom(k, i) (-2 u)^i M[i][k - i].
  std::size_t at = 0;
  for (int k = 0; k <= K; ++k)
    for (int i = 0; i <= k; ++i)
      c.cent[at++] = kHalf[k] * binomial(k, i) * std::pow(-2.0, i) * M[i * (K + 1) + (k - i)];
  // Diagonal form: e = (-2 u a + b) / (m u^2); b = g + sigma, so the moments of b are
  // M'[i][l] = sum_r binom(l, r) sigma^(l - r) M[i][r] and the term (k, i) has power u^-(2k - i).
  for (int k = 0; k <= K; ++k)
    for (int i = 0; i <= k; ++i) {
      const int l = k - i;
      double mb = 0.0;
      for (int r = 0; r <= l; ++r)
        mb += binomial(l, r) * std::pow(c.sigma, l - r) * M[i * (K + 1) + r];
      c.diag[2 * k - i] +=
          kHalf[k] * binomial(k, i) * std::pow(-2.0, i) * std::pow(double(dims), -k) * mb;
    }
  c.series = std::all_of(c.cent.begin(), c.cent.end(), [](double v) { return std::isfinite(v); }) &&
             std::all_of(c.diag.begin(), c.diag.end(), [](double v) { return std::isfinite(v); });
  out.chunks.push_back(c);
}

}  // namespace

PtdChunks ptdChunks(const PositionIds& ids, const std::vector<std::size_t>& to) {
  PtdChunks out;
  out.dims = spaceDims(ids.space);
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  std::vector<std::size_t> tokens;
  std::size_t i = 0;
  while (i < to.size()) {
    // A run of one segment; its tokens grouped by tile (or by consecutive runs).
    std::size_t j = i;
    const int seg = ids.tokens[to[i]].segment;
    bool grid = true;
    while (j < to.size() && ids.tokens[to[j]].segment == seg) {
      const TokenInfo& t = ids.tokens[to[j]];
      grid = grid && t.row >= 0 && t.col >= 0 && t.frame >= -1;
      ++j;
    }
    keyed.clear();
    for (std::size_t k = i; k < j; ++k) {
      const TokenInfo& t = ids.tokens[to[k]];
      const std::uint64_t key = grid ? (std::uint64_t(t.frame + 1) << 42) |
                                           (std::uint64_t(t.row / kChunkTile) << 21) |
                                           std::uint64_t(t.col / kChunkTile)
                                     : std::uint64_t((k - i) / kChunkRun);
      keyed.emplace_back(key, to[k]);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::size_t s = 0;
    while (s < keyed.size()) {
      std::size_t e = s;
      tokens.clear();
      while (e < keyed.size() && keyed[e].first == keyed[s].first)
        tokens.push_back(keyed[e++].second);
      addChunk(ids, tokens, out);
      s = e;
    }
    i = j;
  }
  return out;
}

bool seriesDistanceSum(const PtdChunk& c, int dims, double x, double* sum) {
  if (!c.series) return false;
  const double u = x - c.x0, au = std::abs(u), mu2 = dims * u * u;
  // Every token: |e| <= (2 |u| |a| + b) / (m u^2) <= kFarRatio.
  if (au > 0.0 && 2.0 * au * c.maxA + c.maxB <= kFarRatio * mu2) {
    const double z = 1.0 / u;
    double s = c.diag[2 * K];
    for (int p = 2 * K - 1; p >= 0; --p) s = s * z + c.diag[p];
    *sum = std::sqrt(double(dims)) * au * s;
    return true;
  }
  const double d2 = mu2 + c.sigma;
  // Every token: |e| <= (2 |u| |a| + |b - sigma|) / D^2 <= kFarRatio.
  if (d2 > 0.0 && 2.0 * au * c.maxA + c.maxG <= kFarRatio * d2) {
    const double t = 1.0 / d2;
    double s = 0.0;
    for (int k = K; k >= 0; --k) {
      const double* row = c.cent.data() + k * (k + 1) / 2;
      double p = row[k];
      for (int i = k - 1; i >= 0; --i) p = p * u + row[i];
      s = s * t + p;
    }
    *sum = std::sqrt(d2) * s;
    return true;
  }
  return false;
}

namespace {

// Neumaier's compensated sum.
struct CompensatedSum {
  double sum = 0.0, comp = 0.0;
  void add(double v) {
    const double t = sum + v;
    comp += std::abs(sum) >= std::abs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  double value() const { return sum + comp; }
};

// Text tokens per block: the series of one chunk runs over a block's tokens in one loop. The
// blocks are fixed by the text count alone, so no result depends on the thread count.
constexpr std::size_t kTextBlock = 64;

}  // namespace

bool chunkedPtd(const PositionIds& ids, const std::vector<std::size_t>& text,
                const std::vector<std::size_t>& to, int threads, ProgressMeter& meter,
                PtdResult& r) {
  const PtdChunks pc = ptdChunks(ids, to);
  if (!meter.step(0)) return false;
  const std::size_t nc = pc.chunks.size();
  const int dims = pc.dims;
  const double nVis = static_cast<double>(to.size());
  const MetricKernels& k = metricKernels();
  r.perText.assign(text.size(), 0.0);
  r.meanDistance.assign(text.size(), 0.0);
  const std::size_t blocks = (text.size() + kTextBlock - 1) / kTextBlock;
  // Pieces of several blocks: the scratch below is set up once per piece.
  const std::size_t pieces = std::min<std::size_t>(blocks, 64);
  parallelForPieces(blocks, pieces, threads, [&](std::size_t firstBlock, std::size_t lastBlock) {
    std::vector<double> sums(nc * kTextBlock), dist(pc.w.size());
    std::array<double, kTextBlock> x{}, mean{}, dev{};
    std::vector<unsigned char> straddle(nc * kTextBlock);
    for (std::size_t blk = firstBlock; blk < lastBlock; ++blk) {
      if (meter.stopped()) return;
      const std::size_t t0 = blk * kTextBlock, nt = std::min(kTextBlock, text.size() - t0);
      for (std::size_t t = 0; t < nt; ++t) x[t] = ids.ids[text[t0 + t]][0];
      // Pass 1: every chunk's distance sum for the block's tokens: the diagonal series in one
      // vector loop, then the centroid series or the tokens one by one where that was too near.
      for (std::size_t c = 0; c < nc; ++c) {
        const PtdChunk& ch = pc.chunks[c];
        double* s = sums.data() + c * kTextBlock;
        if (ch.series)
          k.seriesSums(x.data(), nt, ch.x0, ch.diag.data(), static_cast<int>(ch.diag.size()), dims,
                       ch.maxA, ch.maxB, kFarRatio, s);
        for (std::size_t t = 0; t < nt; ++t) {
          if (!std::isnan(s[t]) || seriesDistanceSum(ch, dims, x[t], s + t)) continue;
          const double q = x[t] - ch.x0;
          // The chunk's first distance as the shift (see MetricKernels::distanceSum), so the sum
          // stays within an ulp or so even when every distance is nearly the same.
          if (dims == 1) {
            const double shift = std::abs(q - pc.line[ch.first]);
            s[t] = shift * ch.count + k.lineDistanceSum(pc.line.data() + ch.first,
                                                        pc.w.data() + ch.first, ch.size, q, shift,
                                                        dist.data() + ch.first);
          } else {
            const double cc = dims * q * q;
            const double shift =
                std::sqrt(std::max(std::fma(pc.a[ch.first], q, pc.b[ch.first]) + cc, 0.0));
            s[t] = shift * ch.count + k.distanceSum(pc.a.data() + ch.first, pc.b.data() + ch.first,
                                                    pc.w.data() + ch.first, ch.size, q, cc, shift,
                                                    dist.data() + ch.first);
          }
        }
      }
      // The mean: chunk sums added in chunk order, compensated.
      for (std::size_t t = 0; t < nt; ++t) {
        CompensatedSum total;
        for (std::size_t c = 0; c < nc; ++c) total.add(sums[c * kTextBlock + t]);
        mean[t] = total.value() / nVis;
        dev[t] = 0.0;
      }
      // Pass 2: chunks wholly above or below the mean from their sums, the rest token by token.
      for (std::size_t c = 0; c < nc; ++c) {
        const PtdChunk& ch = pc.chunks[c];
        k.chunkDeviation(sums.data() + c * kTextBlock, x.data(), mean.data(), nt, ch.x0, dims,
                         ch.gammaSum, ch.sigma, ch.radius, ch.count, dev.data(),
                         straddle.data() + c * kTextBlock);
      }
      for (std::size_t c = 0; c < nc; ++c) {
        const PtdChunk& ch = pc.chunks[c];
        for (std::size_t t = 0; t < nt; ++t) {
          if (!straddle[c * kTextBlock + t]) continue;
          const double u = x[t] - ch.x0;
          double* d = dist.data() + ch.first;
          if (dims == 1)
            k.lineDistanceSum(pc.line.data() + ch.first, pc.w.data() + ch.first, ch.size, u, 0.0,
                              d);
          else
            k.distanceSum(pc.a.data() + ch.first, pc.b.data() + ch.first, pc.w.data() + ch.first,
                          ch.size, u, dims * u * u, 0.0, d);
          dev[t] += k.weightedAbsDeviation(d, pc.w.data() + ch.first, ch.size, mean[t]);
        }
      }
      for (std::size_t t = 0; t < nt; ++t) {
        r.meanDistance[t0 + t] = mean[t];
        r.perText[t0 + t] = dev[t] / nVis;
      }
      if (!meter.step(nt)) return;
    }
  });
  return !meter.stopped();
}

}  // namespace ropescope::detail
