// What a model does with its rotary pairs and its sinks, read from real q/k: per pair the mean
// norms of q's and k's 2-vectors (arXiv 2410.06205), per head the causal attention on the first
// token and on each picture's first token (arXiv 2410.10781). docs/user/attention.md#qk-usage.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

struct Scene;

// A head "is a sink" for a token when its mean attention there passes this share: the
// threshold epsilon of arXiv 2410.10781 (section 3), used for the count of sink heads.
inline constexpr double kSinkThreshold = 0.3;

// A token whose attention is measured: the first token, or a visual segment's first token.
struct SinkTarget {
  std::string name;  // "first token", "picture 1", "picture 2", ... (visual segments, in order)
  std::size_t token = 0;
  int segment = 0;  // the layout segment it opens (TokenInfo::segment)
  Modality modality = Modality::Text;
};

struct QkUsage {
  std::size_t tokens = 0;
  int qHeads = 0, kvHeads = 0, headDim = 0;
  PairTable pairs;  // per pair its axis and theta; layout says which dims it rotates

  // [q head][pair]: mean over tokens of ||q_p(t)|| (q head h) and of ||k_p(t)|| (k head h / g,
  // g = qHeads / kvHeads, as attention pairs them), and their product, which is the mean over
  // every (query, key) token pair of ||q_p(m)|| ||k_p(n)||: the bound on pair p's part of a
  // logit before 1/sqrt(d). Norms of the 2-vectors before RoPE; a rotation keeps them.
  std::vector<std::vector<double>> qNorm, kNorm, product;
  std::vector<double> meanQNorm, meanKNorm, meanProduct;  // [pair], the mean over q heads
  // meanProduct[p] / sum over pairs of meanProduct: the pair's share of the bound. Empty (n/a)
  // when every product is 0 (q or k all zero in the rotary dims); shareUndefined says why.
  std::vector<double> share;
  std::string shareUndefined;

  // Causal softmax attention with RoPE at the scene's ids (the attention backend's rows):
  // sink[h][j] = mean over query rows r >= token_j of P_h[r, token_j], the rows that may see
  // it. targets[0] is the first token; the rest the visual segments' first tokens.
  std::vector<SinkTarget> targets;
  std::vector<std::vector<double>> sink;  // [q head][target]
  std::vector<double> meanSink;           // [target], the mean over heads
  std::vector<int> sinkHeads;             // [target], heads whose sink passes kSinkThreshold
  // Why there is no picture target ("" when there is one): the layout has no visual segment.
  std::string picturesUndefined;
};

// The usage of `problem`'s q/k (its ids, pair table and tensors; its causal flag is not read:
// the sinks are always causal) over the tokens `ids` describes. The attention runs on the CPU
// backend with `threads` workers (0 = all cores), a block of rows at a time. Throws InputError
// when a logit leaves float32's range (logitOverflowMessage).
QkUsage qkUsage(const AttentionProblem& problem, const PositionIds& ids, int threads = 0);

// The scene's ids (effectiveIds) and plan (resolvePairs) with q/k from `qk`, called with the
// layout's tokens and the plan's head dim: loadQkNpy for files, qkFromViews for arrays, whose
// checks refuse a shape that does not match. Throws InputError for an invalid scene too.
QkUsage sceneQkUsage(const Scene& scene,
                     const std::function<QkTensors(std::size_t tokens, int headDim)>& qk,
                     int threads = 0);

}  // namespace ropescope
