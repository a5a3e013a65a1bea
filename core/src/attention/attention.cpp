// q/k sources, the rotary table, rotation, problem checks and the double-precision reference:
// the parts of the attention preview that every backend shares.
#include "ropescope/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "kernels/metric_kernels.h"
#include "parallel.h"
#include "ropescope/errors.h"
#include "ropescope/large_buffer.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_fields.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

// q and k are held as float vectors; the same cap as for .npy input keeps generated inputs
// (heads x tokens x head dim) to what a desktop can hold.
void checkQkSize(int heads, std::size_t tokens, int headDim) {
  if (heads < kMinQkHeads || heads > kMaxQkHeads)
    throw InputError("heads must be in " + std::to_string(kMinQkHeads) + ".." +
                         std::to_string(kMaxQkHeads) + " (got " + std::to_string(heads) + ")",
                     "heads");
  const SceneField& dim = sceneField("head_dim");
  if (headDim < dim.spec.min || headDim > dim.spec.max || headDim % 2 != 0)
    throw InputError("head dim must be an even number in " + dim.rangeText() + " (got " +
                         std::to_string(headDim) + ")",
                     dim.key());
  const double values = double(heads) * double(tokens) * double(headDim);
  if (values > double(kNpyMaxElements))
    throw InputError("q/k of " + std::to_string(heads) + " heads x " + std::to_string(tokens) +
                         " tokens x " + std::to_string(headDim) + " dims exceed the limit of " +
                         std::to_string(kNpyMaxElements) + " values; use fewer heads or tokens",
                     "heads");
}

}  // namespace

QkTensors identicalQk(int heads, std::size_t tokens, int headDim) {
  checkQkSize(heads, tokens, headDim);
  QkTensors t;
  t.qHeads = t.kvHeads = heads;
  t.tokens = tokens;
  t.headDim = headDim;
  const float v = static_cast<float>(1.0 / std::sqrt(double(headDim)));
  resizeOnHugePages(t.q, std::size_t(heads) * tokens * std::size_t(headDim));
  std::fill(t.q.begin(), t.q.end(), v);
  resizeOnHugePages(t.k, t.q.size());
  std::fill(t.k.begin(), t.k.end(), v);
  return t;
}

QkTensors randomQk(int qHeads, int kvHeads, std::size_t tokens, int headDim, std::uint64_t seed) {
  checkQkSize(qHeads, tokens, headDim);
  checkQkSize(kvHeads, tokens, headDim);
  if (qHeads % kvHeads != 0)
    throw InputError("q heads (" + std::to_string(qHeads) + ") must be a multiple of k heads (" +
                         std::to_string(kvHeads) + ")",
                     "heads");
  QkTensors t;
  t.qHeads = qHeads;
  t.kvHeads = kvHeads;
  t.tokens = tokens;
  t.headDim = headDim;
  const std::size_t qCount = std::size_t(qHeads) * tokens * std::size_t(headDim);
  const std::size_t total = qCount + std::size_t(kvHeads) * tokens * std::size_t(headDim);
  // Reserved and advised, then appended to: never cleared first.
  for (auto [v, count] : {std::pair{&t.q, qCount}, std::pair{&t.k, total - qCount}}) {
    v->reserve(count);
    adviseHugePages(v->data(), count * sizeof(float));
  }
  // One stream of normals over q then k: pairs of uniforms (u1, u2) in (0, 1] from the
  // generator, r cos(2 pi u2) and r sin(2 pi u2) with r = sqrt(-2 ln u1). The cosines and sines
  // of a block of pairs come from the vector kernel (metric_kernels.h), the rest in order.
  std::mt19937_64 rng(seed);
  const auto uniform = [&rng] { return double((rng() >> 11) + 1) * 0x1.0p-53; };  // (0, 1]
  constexpr std::size_t kBlock = 2048;                                            // pairs
  std::vector<double> r(kBlock), u2(kBlock), c(kBlock), s(kBlock);
  std::vector<float> normals(2 * kBlock);
  const detail::MetricKernels& kernels = detail::metricKernels();
  for (std::size_t first = 0; first < total; first += 2 * kBlock) {
    const std::size_t pairs = std::min(kBlock, (total - first + 1) / 2);
    for (std::size_t p = 0; p < pairs; ++p) {
      const double u1 = uniform();
      u2[p] = uniform();
      r[p] = std::sqrt(-2.0 * std::log(u1));
    }
    kernels.trigTable(u2.data(), pairs, 2.0 * std::numbers::pi, 1.0, c.data(), s.data());
    for (std::size_t p = 0; p < pairs; ++p) {
      normals[2 * p] = static_cast<float>(r[p] * c[p]);
      normals[2 * p + 1] = static_cast<float>(r[p] * s[p]);
    }
    const std::size_t count = std::min(2 * pairs, total - first);  // an odd total drops one
    const std::size_t toQ = first < qCount ? std::min(count, qCount - first) : 0;
    t.q.insert(t.q.end(), normals.begin(), normals.begin() + std::ptrdiff_t(toQ));
    t.k.insert(t.k.end(), normals.begin() + std::ptrdiff_t(toQ),
               normals.begin() + std::ptrdiff_t(count));
  }
  return t;
}

namespace {

// The heads of a q or k of `shape` holding `size` values at `data`: [N, d] or [heads, N, d] for
// the layout's N and the plan's d, every value finite. Throws InputError starting with `name`.
int checkedHeads(const std::vector<std::size_t>& dims, const float* data, std::size_t size,
                 const std::string& name, std::size_t tokens, int headDim) {
  const std::string where = name + " ";
  std::string shape = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) shape += ", ";
    shape += std::to_string(dims[i]);
  }
  shape += ")";
  const std::string nd = std::to_string(tokens) + ", " + std::to_string(headDim) + "]";
  const std::string want = std::string("[") + nd + " or [heads, " + nd;
  if (dims.size() != 2 && dims.size() != 3)
    throw InputError(where + "has shape " + shape + "; expected " + want);
  const std::size_t n = dims[dims.size() - 2], d = dims.back();
  const std::size_t h = dims.size() == 3 ? dims[0] : 1;
  if (n != tokens)
    throw InputError(where + "has " + std::to_string(n) + " tokens (shape " + shape +
                     ") but the layout has " + std::to_string(tokens));
  if (d != std::size_t(headDim))
    throw InputError(where + "has head dim " + std::to_string(d) + " (shape " + shape +
                     ") but the plan's head dim is " + std::to_string(headDim) + " (--head-dim)");
  if (h < std::size_t{kMinQkHeads} || h > std::size_t{kMaxQkHeads})
    throw InputError(where + "has " + std::to_string(h) + " heads (accepted " +
                     std::to_string(kMinQkHeads) + ".." + std::to_string(kMaxQkHeads) + ")");
  if (size != h * n * d)
    throw InputError(where + "holds " + std::to_string(size) + " values but shape " + shape +
                     " needs " + std::to_string(h * n * d));
  // A NaN or inf would turn whole softmax rows into NaN without saying where it came from.
  for (std::size_t i = 0; i < size; ++i)
    if (!std::isfinite(data[i]))
      throw InputError(where + "has a non-finite value (NaN or inf) at flat index " +
                       std::to_string(i));
  return static_cast<int>(h);
}

void checkGroups(const QkTensors& t, const std::string& qName, const std::string& kName) {
  if (t.qHeads % t.kvHeads != 0)
    throw InputError(qName + " has " + countOf(t.qHeads, "head") + ", not a multiple of the " +
                     countOf(t.kvHeads, "head") + " of " + kName);
}

}  // namespace

QkTensors qkFromArrays(NpyArray q, NpyArray k, std::size_t tokens, int headDim,
                       const std::string& qName, const std::string& kName) {
  QkTensors t;
  t.tokens = tokens;
  t.headDim = headDim;
  t.qHeads = checkedHeads(q.shape, q.data.data(), q.data.size(), qName, tokens, headDim);
  t.kvHeads = checkedHeads(k.shape, k.data.data(), k.data.size(), kName, tokens, headDim);
  t.q = std::move(q.data);
  t.k = std::move(k.data);
  checkGroups(t, qName, kName);
  return t;
}

QkTensors qkFromViews(const FloatBuffer& q, const FloatBuffer& k, std::size_t tokens, int headDim,
                      const std::string& qName, const std::string& kName) {
  QkTensors t;
  t.tokens = tokens;
  t.headDim = headDim;
  t.qHeads = checkedHeads(q.shape, q.data, q.size, qName, tokens, headDim);
  t.kvHeads = checkedHeads(k.shape, k.data, k.size, kName, tokens, headDim);
  t.qBorrowed = q.data;
  t.kBorrowed = k.data;
  checkGroups(t, qName, kName);
  return t;
}

QkTensors loadQkNpy(const std::string& qPath, const std::string& kPath, std::size_t tokens,
                    int headDim) {
  NpyArray q = readNpy(qPath, "q file");
  const std::string qName = "q file \"" + qPath + "\"";
  const std::string kName = "k file \"" + kPath + "\"";
  NpyArray k = readNpy(kPath, "k file");
  return qkFromArrays(std::move(q), std::move(k), tokens, headDim, qName, kName);
}

RotaryTable rotaryTable(const std::vector<Id3>& ids, const PairTable& pairs) {
  RotaryTable r;
  r.tokens = ids.size();
  r.pairs = pairs.size();
  r.headDim = pairs.headDim;
  r.layout = pairs.layout;
  r.attentionFactor = pairs.attentionFactor;
  const double factor = pairs.attentionFactor;
  resizeOnHugePages(r.cos, r.tokens * std::size_t(r.pairs));
  resizeOnHugePages(r.sin, r.cos.size());
  // One pair at a time over all tokens through the vector kernel (metric_kernels.h).
  std::vector<double> coord(r.tokens), c(r.tokens), s(r.tokens);
  const detail::MetricKernels& kernels = detail::metricKernels();
  for (int p = 0; p < r.pairs; ++p) {
    const Axis a = pairs.axis[std::size_t(p)];
    for (std::size_t t = 0; t < r.tokens; ++t) coord[t] = axisCoordinate(a, ids[t]);
    kernels.trigTable(coord.data(), r.tokens, pairs.theta[std::size_t(p)], 1.0, c.data(), s.data());
    for (std::size_t t = 0; t < r.tokens; ++t) {
      r.cos[t * std::size_t(r.pairs) + std::size_t(p)] = static_cast<float>(c[t] * factor);
      r.sin[t * std::size_t(r.pairs) + std::size_t(p)] = static_cast<float>(s[t] * factor);
    }
  }
  return r;
}

std::string logitOverflowMessage(const std::string& where) {
  return "the logits of " + where +
         " overflow float32 (q . k / sqrt(d) beyond 3.4e38): scale q and k down";
}

bool attentionOverflowed(const float* values, std::size_t count) {
  return std::any_of(values, values + count, [](float x) {
    return std::isnan(x) || x > std::numeric_limits<float>::max();
  });
}

void forEachSoftmaxBlock(
    AttentionBackend& backend, int head, std::size_t first, int threads,
    const std::function<void(std::size_t r0, std::size_t r1, const float* rows)>& visit) {
  const std::size_t n = backend.tokens();
  if (first >= n) return;
  const std::size_t chunk = attentionChunkRows(n, n - first, threads);
  std::vector<float> rows(chunk * n);
  for (std::size_t r0 = first; r0 < n; r0 += chunk) {
    const std::size_t r1 = std::min(n, r0 + chunk);
    backend.rows(head, r0, r1, AttentionValue::Softmax, rows.data());
    if (attentionOverflowed(rows.data(), (r1 - r0) * n))
      throw InputError(logitOverflowMessage("head " + std::to_string(head) + ", rows " +
                                            std::to_string(r0) + ":" + std::to_string(r1)),
                       "q");
    visit(r0, r1, rows.data());
  }
}

void checkAttentionRequest(int head, std::size_t begin, std::size_t end, int heads,
                           std::size_t tokens) {
  if (tokens == 0) throw InputError("attention: no problem loaded");
  if (head < 0 || head >= heads)
    throw InputError(
        "attention: head " + std::to_string(head) + " out of range 0.." + std::to_string(heads - 1),
        "head");
  if (begin >= end || end > tokens)
    throw InputError("attention: rows " + std::to_string(begin) + ":" + std::to_string(end) +
                         " out of range 0:" + std::to_string(tokens),
                     "rows");
}

void validateProblem(const AttentionProblem& p) {
  const QkTensors& qk = p.qk;
  if (qk.qHeads < 1 || qk.kvHeads < 1 || qk.qHeads % qk.kvHeads != 0)
    throw InputError("attention: q heads must be a positive multiple of k heads");
  if (qk.tokens == 0) throw InputError("attention: the layout has no tokens");
  const std::size_t row = qk.tokens * std::size_t(qk.headDim);
  if (qk.qCount() != std::size_t(qk.qHeads) * row || qk.kCount() != std::size_t(qk.kvHeads) * row)
    throw InputError("attention: q/k sizes do not match heads x tokens x head dim");
  if (p.rotary.tokens != qk.tokens || p.rotary.headDim != qk.headDim ||
      2 * p.rotary.pairs > qk.headDim ||
      p.rotary.cos.size() != qk.tokens * std::size_t(p.rotary.pairs) ||
      p.rotary.sin.size() != p.rotary.cos.size())
    throw InputError("attention: the rotary table does not match q/k (tokens " +
                     std::to_string(p.rotary.tokens) + " vs " + std::to_string(qk.tokens) +
                     ", head dim " + std::to_string(p.rotary.headDim) + " vs " +
                     std::to_string(qk.headDim) + ")");
  if (!p.keys.empty()) {
    if (p.keys.size() != qk.tokens)
      throw InputError("attention: the mask has " + std::to_string(p.keys.size()) +
                       " rows but q/k have " + std::to_string(qk.tokens) + " tokens");
    for (std::size_t r = 0; r < p.keys.size(); ++r)
      if (p.keys[r].begin >= p.keys[r].end || p.keys[r].end > qk.tokens)
        throw InputError("attention: the mask's keys of row " + std::to_string(r) + " (" +
                         std::to_string(p.keys[r].begin) + ":" + std::to_string(p.keys[r].end) +
                         ") are empty or lie outside 0:" + std::to_string(qk.tokens));
  }
  if (!p.queryScale.empty() && p.queryScale.size() != qk.tokens)
    throw InputError("attention: the query scale has " + std::to_string(p.queryScale.size()) +
                     " entries but q/k have " + std::to_string(qk.tokens) + " tokens");
  if (!(p.logitScale >= 0.0) || !std::isfinite(p.logitScale))
    throw InputError("attention: the logit scale must be a finite number >= 0");
}

std::vector<KeyRange> problemKeyRanges(const AttentionProblem& p) {
  if (!p.keys.empty()) return p.keys;
  const std::size_t n = p.qk.tokens;
  std::vector<KeyRange> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = {0, static_cast<std::uint32_t>(p.causal ? i + 1 : n)};
  return r;
}

float problemLogitScale(const AttentionProblem& p) {
  return static_cast<float>(p.logitScale > 0.0 ? p.logitScale
                                               : 1.0 / std::sqrt(double(p.qk.headDim)));
}

AttentionProblem makeAttentionProblem(QkTensors qk, std::vector<Id3> ids, PairTable pairs,
                                      bool causal) {
  AttentionProblem p;
  p.rotary = rotaryTable(ids, pairs);
  p.qk = std::move(qk);
  p.ids = std::move(ids);
  p.pairs = std::move(pairs);
  p.causal = causal;
  validateProblem(p);
  return p;
}

void checkPreviewQkSize(const QkSourceSpec& source, std::size_t tokens, int headDim) {
  if (source.kind == QkSourceSpec::Kind::Files) return;
  const double values = double(source.heads) * double(tokens) * double(headDim);
  if (values <= kMaxPreviewQkValues) return;
  throw InputError("the preview's q/k of " + std::to_string(source.heads) + " head(s) x " +
                       std::to_string(tokens) + " tokens x " + std::to_string(headDim) +
                       " dims would hold " + std::to_string(static_cast<long long>(values)) +
                       " values; the preview takes at most 67108864 (2^26): use fewer heads, "
                       "fewer tokens or the CLI's attention command",
                   "heads");
}

AttentionProblem makeAttentionProblem(const Scene& scene, const QkSourceSpec& source, bool causal) {
  validateScene(scene);
  PositionIds ids = effectiveIds(scene);
  PairTable pairs = resolvePairs(scene.frequency);
  const std::size_t n = ids.size();
  const int d = scene.frequency.rotary.headDim;
  QkTensors qk;
  switch (source.kind) {
    case QkSourceSpec::Kind::Identical:
      qk = identicalQk(source.heads, n, d);
      break;
    case QkSourceSpec::Kind::Random:
      qk = randomQk(source.heads, source.heads, n, d, source.seed);
      break;
    case QkSourceSpec::Kind::Files:
      qk = loadQkNpy(source.qPath, source.kPath, n, d);
      break;
  }
  return makeAttentionProblem(std::move(qk), std::move(ids.ids), std::move(pairs), causal);
}

void rotateRows(const AttentionProblem& problem, bool query, std::size_t begin, std::size_t end,
                float* out) {
  const QkTensors& in = problem.qk;
  const RotaryTable& rt = problem.rotary;
  const std::size_t d = std::size_t(in.headDim), h = std::size_t(rt.pairs), n = in.tokens;
  const float scale = query ? problemLogitScale(problem) : 1.0f;
  const std::size_t rows = (query ? std::size_t(in.qHeads) : std::size_t(in.kvHeads)) * n;
  if (begin > end || end > rows)
    throw InputError("attention: rows " + std::to_string(begin) + ":" + std::to_string(end) +
                     " of " + (query ? "q" : "k") + " out of range 0:" + std::to_string(rows));
  for (std::size_t r = begin; r < end; ++r) {
    const float* x = (query ? in.qData() : in.kData()) + r * d;
    float* y = out + (r - begin) * d;
    const float* c = rt.cos.data() + (r % n) * h;
    const float* sn = rt.sin.data() + (r % n) * h;
    const float s =
        query && !problem.queryScale.empty() ? scale * problem.queryScale[r % n] : scale;
    if (rt.layout == PairLayout::NeoX) {  // pair p is dims (p, p + h): a loop that vectorises
      for (std::size_t p = 0; p < h; ++p) {
        const float x0 = x[p], x1 = x[p + h];
        y[p] = (x0 * c[p] - x1 * sn[p]) * s;
        y[p + h] = (x1 * c[p] + x0 * sn[p]) * s;
      }
    } else {
      for (std::size_t p = 0; p < h; ++p) {
        const PairDims pd = pairDims(rt.layout, int(p), int(h));
        const std::size_t i0 = std::size_t(pd.first), i1 = std::size_t(pd.second);
        const float x0 = x[i0], x1 = x[i1];
        y[i0] = (x0 * c[p] - x1 * sn[p]) * s;
        y[i1] = (x1 * c[p] + x0 * sn[p]) * s;
      }
    }
    for (std::size_t i = 2 * h; i < d; ++i) y[i] = x[i] * s;
  }
}

std::vector<double> referenceAttention(const AttentionProblem& problem, int head,
                                       AttentionValue value) {
  validateProblem(problem);
  const QkTensors& in = problem.qk;
  if (head < 0 || head >= in.qHeads) throw InputError("attention: head out of range");
  if (problem.ids.size() != in.tokens || problem.pairs.size() != problem.rotary.pairs ||
      problem.pairs.layout != problem.rotary.layout)
    throw InputError("attention: the reference needs the problem's ids and pairs");
  const std::size_t n = in.tokens, d = std::size_t(in.headDim),
                    h = std::size_t(problem.rotary.pairs);
  const int group = in.qHeads / in.kvHeads;
  const double factor = problem.pairs.attentionFactor;  // multiplies cos and sin, as transformers
  const auto rotate = [&](const float* x, std::size_t t) {
    std::vector<double> y(d);
    for (std::size_t p = 0; p < h; ++p) {
      const Axis a = problem.pairs.axis[p];
      const double angle = axisCoordinate(a, problem.ids[t]) * problem.pairs.theta[p];
      const double c = factor * std::cos(angle), s = factor * std::sin(angle);
      const PairDims pd = pairDims(problem.rotary.layout, int(p), int(h));
      const std::size_t i0 = std::size_t(pd.first), i1 = std::size_t(pd.second);
      y[i0] = double(x[i0]) * c - double(x[i1]) * s;
      y[i1] = double(x[i1]) * c + double(x[i0]) * s;
    }
    for (std::size_t i = 2 * h; i < d; ++i) y[i] = x[i];
    return y;
  };
  std::vector<std::vector<double>> qr(n), kr(n);
  for (std::size_t t = 0; t < n; ++t) {
    qr[t] = rotate(in.qData() + (std::size_t(head) * n + t) * d, t);
    kr[t] = rotate(in.kData() + (std::size_t(head / group) * n + t) * d, t);
  }
  const double inv = problem.logitScale > 0.0 ? problem.logitScale : 1.0 / std::sqrt(double(d));
  const std::vector<KeyRange> keys = problemKeyRanges(problem);
  std::vector<double> out(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    double* row = out.data() + i * n;
    double m = -std::numeric_limits<double>::infinity();
    const double qs = problem.queryScale.empty() ? 1.0 : double(problem.queryScale[i]);
    for (std::size_t j = 0; j < n; ++j) {
      if (j < keys[i].begin || j >= keys[i].end) {
        row[j] = -std::numeric_limits<double>::infinity();
        continue;
      }
      double dot = 0.0;
      for (std::size_t x = 0; x < d; ++x) dot += qr[i][x] * kr[j][x];
      row[j] = dot * inv * qs;
      m = std::max(m, row[j]);
    }
    if (value == AttentionValue::Softmax) {
      double s = 0.0;
      for (std::size_t j = 0; j < n; ++j) s += std::isinf(row[j]) ? 0.0 : std::exp(row[j] - m);
      for (std::size_t j = 0; j < n; ++j)
        row[j] = std::isinf(row[j]) ? 0.0 : std::exp(row[j] - m) / s;
    }
  }
  return out;
}

RowStats AttentionBackend::rowsAndStats(int head, std::size_t b, std::size_t e,
                                        AttentionValue value, float* out) {
  RowStats st = rowStats(head, b, e);
  rows(head, b, e, value, out);
  return st;
}

BackendChoice parseBackendChoice(const std::string& text) {
  if (text == "auto") return BackendChoice::Auto;
  if (text == "cpu") return BackendChoice::Cpu;
  if (text == "gpu") return BackendChoice::Gpu;
  throw InputError("--backend must be auto, cpu or gpu (got \"" + text + "\")", "backend");
}

Summary3 summarize(const std::vector<float>& values) {
  Summary3 s;
  if (values.empty()) return s;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  double sum = 0.0;
  for (float v : values) {
    s.min = std::min(s.min, double(v));
    s.max = std::max(s.max, double(v));
    sum += v;
  }
  s.mean = sum / double(values.size());
  return s;
}

}  // namespace ropescope
