// An independent float64 attention reference for the pair-layout tests, written the way
// Hugging Face transformers writes RoPE rather than the way core does: a full-width cos/sin row
// per token (NeoX: cat(f, f), as Qwen's rotary embedding; GPT-J: f.repeat_interleave(2), as
// GLM-4V's apply_multimodal_rotary_pos_emb), then q * cos + rotate(q) * sin on q[..., :r] with
// rotate = rotate_half (cat(-x2, x1) of the two halves) or rotate_half_llm (stack(-x_odd,
// x_even).flatten: out[2j] = -x[2j+1], out[2j+1] = x[2j]); dims r.. pass through; logits
// q.k / sqrt(d), causal mask, row softmax. Shared by the CPU and GPU tests.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "ropescope/attention.h"

namespace ropescope::testref {

// Full-width q or k of one token after RoPE, in double. angle[j] for j < r/2 is the angle of
// frequency slot j (id of the slot's axis times base^(-2j/r)).
inline std::vector<double> hfRotate(const float* x, int d, int r, const std::vector<double>& angle,
                                    bool gptj) {
  std::vector<double> cosRow(r), sinRow(r), rot(r), out(d);
  for (int i = 0; i < r; ++i) {
    const int slot = gptj ? i / 2 : i % (r / 2);  // repeat_interleave(2) vs cat(f, f)
    cosRow[i] = std::cos(angle[slot]);
    sinRow[i] = std::sin(angle[slot]);
  }
  for (int i = 0; i < r; ++i) {
    if (gptj)
      rot[i] = i % 2 == 0 ? -double(x[i + 1]) : double(x[i - 1]);
    else
      rot[i] = i < r / 2 ? -double(x[i + r / 2]) : double(x[i - r / 2]);
  }
  for (int i = 0; i < r; ++i) out[i] = double(x[i]) * cosRow[i] + rot[i] * sinRow[i];
  for (int i = r; i < d; ++i) out[i] = x[i];
  return out;
}

// [N x N] logits or softmax of q head `head` (GQA: k head head / (qHeads / kvHeads)), from the
// problem's q/k and ids, the slot axes of its pair table, and theta recomputed from `base`.
inline std::vector<double> hfAttention(const AttentionProblem& p, int head, double base, bool gptj,
                                       bool softmax) {
  const QkTensors& qk = p.qk;
  const std::size_t n = qk.tokens;
  const int d = qk.headDim, r = 2 * p.pairs.size();
  const int kHead = head / (qk.qHeads / qk.kvHeads);
  std::vector<std::vector<double>> q(n), k(n);
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<double> angle(r / 2);
    for (int j = 0; j < r / 2; ++j) {
      const Axis a = p.pairs.axis[j];
      angle[j] = a == Axis::None ? 0.0 : double(p.ids[t][int(a)]) * std::pow(base, -2.0 * j / r);
    }
    q[t] = hfRotate(qk.q.data() + (std::size_t(head) * n + t) * d, d, r, angle, gptj);
    k[t] = hfRotate(qk.k.data() + (std::size_t(kHead) * n + t) * d, d, r, angle, gptj);
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> out(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    double m = -inf;
    for (std::size_t j = 0; j < n; ++j) {
      double dot = 0;
      for (int x = 0; x < d; ++x) dot += q[i][x] * k[j][x];
      out[i * n + j] = p.causal && j > i ? -inf : dot / std::sqrt(double(d));
      m = std::max(m, out[i * n + j]);
    }
    if (!softmax) continue;
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += std::exp(out[i * n + j] - m);
    for (std::size_t j = 0; j < n; ++j) out[i * n + j] = std::exp(out[i * n + j] - m) / sum;
  }
  return out;
}

}  // namespace ropescope::testref
