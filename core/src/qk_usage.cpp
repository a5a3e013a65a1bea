// Pair usage and attention sinks of real q/k (qk_usage.h).
#include "ropescope/qk_usage.h"

#include <algorithm>
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

// Mean over the tokens of each rotary pair's 2-vector norm, in double, for one head's rows
// x[tokens][headDim].
std::vector<double> qkuMeanPairNorms(const float* x, std::size_t tokens, int headDim,
                                     const PairTable& pairs) {
  const int count = pairs.size();
  std::vector<double> sum(std::size_t(count), 0.0);
  for (std::size_t t = 0; t < tokens; ++t) {
    const float* row = x + t * std::size_t(headDim);
    for (int p = 0; p < count; ++p) {
      const PairDims d = pairDims(pairs.layout, p, count);
      sum[std::size_t(p)] += std::hypot(double(row[d.first]), double(row[d.second]));
    }
  }
  for (double& s : sum) s /= double(tokens);
  return sum;
}

// The first token and the first token of every visual segment, in order.
std::vector<SinkTarget> qkuSinkTargets(const PositionIds& ids) {
  std::vector<SinkTarget> out;
  const auto& info = ids.tokens;
  out.push_back({"first token", 0, info.empty() ? 0 : info[0].segment,
                 info.empty() ? Modality::Text : info[0].modality});
  int pictures = 0;
  for (std::size_t t = 0; t < info.size(); ++t) {
    const Modality m = info[t].modality;
    if (m != Modality::Image && m != Modality::Video) continue;
    if (t > 0 && info[t - 1].segment == info[t].segment) continue;
    out.push_back({"picture " + std::to_string(++pictures), t, info[t].segment, m});
  }
  return out;
}

void qkuPairStats(const AttentionProblem& problem, QkUsage& u) {
  const QkTensors& qk = problem.qk;
  const std::size_t n = qk.tokens, headRows = n * std::size_t(qk.headDim);
  const int group = qk.qHeads / qk.kvHeads;
  std::vector<std::vector<double>> kNorms;
  for (int h = 0; h < qk.kvHeads; ++h)
    kNorms.push_back(
        qkuMeanPairNorms(qk.kData() + std::size_t(h) * headRows, n, qk.headDim, problem.pairs));
  const std::size_t pairs = std::size_t(problem.pairs.size());
  u.meanQNorm.assign(pairs, 0.0);
  u.meanKNorm.assign(pairs, 0.0);
  u.meanProduct.assign(pairs, 0.0);
  for (int h = 0; h < qk.qHeads; ++h) {
    u.qNorm.push_back(
        qkuMeanPairNorms(qk.qData() + std::size_t(h) * headRows, n, qk.headDim, problem.pairs));
    u.kNorm.push_back(kNorms[std::size_t(h / group)]);
    std::vector<double> product(pairs);
    for (std::size_t p = 0; p < pairs; ++p) {
      product[p] = u.qNorm.back()[p] * u.kNorm.back()[p];
      u.meanQNorm[p] += u.qNorm.back()[p] / qk.qHeads;
      u.meanKNorm[p] += u.kNorm.back()[p] / qk.qHeads;
      u.meanProduct[p] += product[p] / qk.qHeads;
    }
    u.product.push_back(std::move(product));
  }
  double total = 0.0;
  for (double v : u.meanProduct) total += v;
  if (total > 0.0) {
    for (double v : u.meanProduct) u.share.push_back(v / total);
  } else {
    u.shareUndefined = "every pair's norm product is 0 (q or k is zero in the rotary dims)";
  }
}

// sink[h][j]: the mean of column targets[j].token of head h's causal softmax over the rows that
// may see it, from the backend's rows a block at a time.
void qkuSinks(const AttentionProblem& problem, int threads, QkUsage& u) {
  const std::size_t n = problem.qk.tokens;
  const auto backend = makeCpuAttentionBackend(threads);
  backend->load(problem);
  const std::size_t targets = u.targets.size();
  u.meanSink.assign(targets, 0.0);
  u.sinkHeads.assign(targets, 0);
  for (int h = 0; h < problem.qk.qHeads; ++h) {
    std::vector<double> sum(targets, 0.0);
    forEachSoftmaxBlock(*backend, h, 0, threads,
                        [&](std::size_t r0, std::size_t r1, const float* rows) {
                          for (std::size_t j = 0; j < targets; ++j) {
                            const std::size_t s = u.targets[j].token;
                            for (std::size_t r = std::max(r0, s); r < r1; ++r)
                              sum[j] += rows[(r - r0) * n + s];
                          }
                        });
    std::vector<double> mean(targets);
    for (std::size_t j = 0; j < targets; ++j) {
      mean[j] = sum[j] / double(n - u.targets[j].token);
      u.meanSink[j] += mean[j] / problem.qk.qHeads;
      if (mean[j] > kSinkThreshold) ++u.sinkHeads[j];
    }
    u.sink.push_back(std::move(mean));
  }
}

}  // namespace

QkUsage qkUsage(const AttentionProblem& problem, const PositionIds& ids, int threads) {
  validateProblem(problem);
  if (ids.size() != problem.qk.tokens || ids.tokens.size() != problem.qk.tokens)
    throw InputError("qk usage: the ids hold " + std::to_string(ids.size()) +
                     " tokens but q/k hold " + std::to_string(problem.qk.tokens));
  if (!problem.causal)
    throw InputError(
        "qk usage: the sinks are measured under a causal mask; build the problem "
        "with causal true");
  QkUsage u;
  u.tokens = problem.qk.tokens;
  u.qHeads = problem.qk.qHeads;
  u.kvHeads = problem.qk.kvHeads;
  u.headDim = problem.qk.headDim;
  u.pairs = problem.pairs;
  qkuPairStats(problem, u);
  u.targets = qkuSinkTargets(ids);
  if (u.targets.size() == 1) u.picturesUndefined = "the layout has no picture or video";
  qkuSinks(problem, threads, u);
  return u;
}

QkUsage sceneQkUsage(const Scene& scene,
                     const std::function<QkTensors(std::size_t tokens, int headDim)>& qk,
                     int threads) {
  validateScene(scene);
  PositionIds ids = effectiveIds(scene);
  PairTable pairs = resolvePairs(scene.frequency);
  QkTensors tensors = qk(ids.size(), scene.frequency.rotary.headDim);
  const AttentionProblem problem =
      makeAttentionProblem(std::move(tensors), ids.ids, std::move(pairs), true);
  return qkUsage(problem, ids, threads);
}

}  // namespace ropescope
