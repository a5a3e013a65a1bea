// Attention preview: RoPE (NeoX rotate_half or GPT-J pairs, partial rotary) applied to q/k with a
// scene's ids and plan, logits q'k'^T/sqrt(d), causal mask and row softmax, behind a tiled backend
// interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/npy.h"
#include "ropescope/position_ids.h"

namespace ropescope {

struct Scene;

// q and k before RoPE, float32, C order: q is [qHeads, tokens, headDim], k [kvHeads, tokens,
// headDim]. qHeads must be a multiple of kvHeads; q head h reads k head h / (qHeads / kvHeads),
// as grouped-query attention does (Hugging Face repeat_kv).
struct QkTensors {
  int qHeads = 1;
  int kvHeads = 1;
  std::size_t tokens = 0;
  int headDim = 0;
  std::vector<float> q, k;  // owned values; empty where borrowed
  // Borrowed q/k (qkFromViews: the caller's buffers, which must outlive every use of these
  // tensors): read instead of q and k when set, so large arrays are not copied on the way in.
  const float* qBorrowed = nullptr;
  const float* kBorrowed = nullptr;
  const float* qData() const { return qBorrowed ? qBorrowed : q.data(); }
  const float* kData() const { return kBorrowed ? kBorrowed : k.data(); }
  std::size_t qCount() const {
    return qBorrowed ? std::size_t(qHeads) * tokens * std::size_t(headDim) : q.size();
  }
  std::size_t kCount() const {
    return kBorrowed ? std::size_t(kvHeads) * tokens * std::size_t(headDim) : k.size();
  }
};

// Heads of q and k (generated, or the first dimension of a file's [heads, N, d]): the CLI's
// --heads, the preview's heads box and every check take this range.
inline constexpr int kMinQkHeads = 1;
inline constexpr int kMaxQkHeads = 256;

// Pure positional bias: every q and k is the unit vector (1, ..., 1)/sqrt(headDim). A rotated
// pair then contributes (2/d) cos(phase difference), so logit * sqrt(d) equals the positional
// bias (rotaryDim/d) * b(delta) (positionalBias, metrics.h; docs/math.md#attention-preview) plus (d
// - rotaryDim)/d from the dims that do not rotate; a rope scaling multiplies the rotated part by
// its attention factor squared.
QkTensors identicalQk(int heads, std::size_t tokens, int headDim);

// Independent standard-normal q and k entries, reproducible across platforms: a
// std::mt19937_64 seeded with `seed` gives 64-bit words x; u = ((x >> 11) + 1) * 2^-53 lies in
// (0, 1]; consecutive words (u1, u2) give z1 = sqrt(-2 ln u1) cos(2 pi u2) and
// z2 = sqrt(-2 ln u1) sin(2 pi u2) (Box-Muller, evaluated in double, then rounded to float).
// Values fill q (all heads, tokens, dims in C order) and then k. std::normal_distribution is
// not used because its algorithm differs between standard libraries.
QkTensors randomQk(int qHeads, int kvHeads, std::size_t tokens, int headDim, std::uint64_t seed);

// Loads q and k from .npy files of shape [tokens, headDim] or [heads, tokens, headDim]
// (float32, float16 or float64, C order). Throws InputError naming the file when a file is
// unreadable (see readNpy) or its shape does not match `tokens` (the layout's token count) and
// `headDim`, or when q's heads are not a multiple of k's.
QkTensors loadQkNpy(const std::string& qPath, const std::string& kPath, std::size_t tokens,
                    int headDim);

// The same checks and messages on arrays already in memory (the Python module's numpy
// arrays): `qName` and `kName` start the messages, e.g. "q file \"q.npy\"" or "q".
QkTensors qkFromArrays(NpyArray q, NpyArray k, std::size_t tokens, int headDim,
                       const std::string& qName, const std::string& kName);

// The same checks on float32 C-order buffers the caller keeps alive (a numpy array's): the
// tensors borrow them instead of copying.
struct FloatBuffer {
  std::vector<std::size_t> shape;
  const float* data = nullptr;
  std::size_t size = 0;
};
QkTensors qkFromViews(const FloatBuffer& q, const FloatBuffer& k, std::size_t tokens, int headDim,
                      const std::string& qName, const std::string& kName);

// cos and sin of every token's angle for every rotary pair: angle = id[axis(p)] * theta_p,
// computed in double (NoPE pairs: angle 0), times the rope scaling's attention factor
// (PairTable::attentionFactor, as transformers multiplies cos and sin by attention_scaling), then
// rounded to float. The rotated dims of q and k are therefore each scaled by the factor, so their
// part of every logit by its square; dims past the rotary dim are not scaled. Both backends
// rotate with these same tables, so they agree to float rounding. (Hugging Face forms the angle in
// float32; for ids near 32768 its angle is off by up to ~2e-3 rad, ours is exact to float
// rounding.)
struct RotaryTable {
  std::size_t tokens = 0;
  int pairs = 0;    // rotary_dim / 2; pair p rotates pairDims(layout, p, pairs)
  int headDim = 0;  // dims >= 2 * pairs pass through unrotated
  PairLayout layout = PairLayout::NeoX;
  double attentionFactor = 1.0;  // already in cos and sin
  std::vector<float> cos, sin;   // [tokens][pairs]
};
RotaryTable rotaryTable(const std::vector<Id3>& ids, const PairTable& pairs);

// The keys [begin, end) one query row sees: every layer mask the preview models (causal,
// sliding window, chunk, a picture's bidirectional block; layer_attention.h) leaves each row one
// contiguous run of keys.
struct KeyRange {
  std::uint32_t begin = 0, end = 0;
  bool operator==(const KeyRange&) const = default;
};

// Everything a backend needs for one preview. ids and pairs are kept for the double reference;
// backends read qk, rotary, the mask (keys, else causal), queryScale and logitScale.
struct AttentionProblem {
  QkTensors qk;
  std::vector<Id3> ids;
  PairTable pairs;
  RotaryTable rotary;
  bool causal = false;
  // A layer's mask (layer_attention.h): one range per token, overriding `causal`; empty: every
  // key, or with causal the keys up to the row's own.
  std::vector<KeyRange> keys;
  // Per-token factor on q after its rotation (Llama 4's NoPE-layer temperature); empty: 1.
  std::vector<float> queryScale;
  // Every logit is q . k times this; 0 means 1/sqrt(head dim) (Gemma's query_pre_attn_scalar
  // sets its own).
  double logitScale = 0.0;
};

// The problem's key range of every row: `keys` when set, else causal or full.
std::vector<KeyRange> problemKeyRanges(const AttentionProblem& problem);
// The float32 scale q is multiplied by before the dot product (logitScale or 1/sqrt(d)).
float problemLogitScale(const AttentionProblem& problem);

// Builds the rotary table from ids and pairs and checks the shapes (see validateProblem).
AttentionProblem makeAttentionProblem(QkTensors qk, std::vector<Id3> ids, PairTable pairs,
                                      bool causal);

// Where q and k come from, as the CLI and the GUI choose it.
struct QkSourceSpec {
  enum class Kind { Identical, Random, Files } kind = Kind::Identical;
  int heads = 1;  // identical / random: q heads (= kv heads)
  std::uint64_t seed = 0;
  std::string qPath, kPath;
};

// The desktop preview's size guard for generated q/k (identical or random): heads x tokens x
// head dim up to 2^26 values (256 MiB a tensor; the preview holds q, k, their rotated copies and
// the GPU's buffers at once), more refused with one line naming the counts and the limit. Found
// by the GUI abuse test: 4 random heads on a 245k-token scene took 3.4 GB. The CLI has no such
// guard (a batch job may use the machine).
inline constexpr double kMaxPreviewQkValues = 67108864.0;  // 2^26
void checkPreviewQkSize(const QkSourceSpec& source, std::size_t tokens, int headDim);

// Ids of the scene's effective design, its pair table, and q/k from the source. Throws
// InputError for an invalid scene, a head dim that differs from the plan's, or bad files.
AttentionProblem makeAttentionProblem(const Scene& scene, const QkSourceSpec& source, bool causal);

// Applies RoPE in the table's pair layout to q (also scaling it by problemLogitScale and the
// token's queryScale, so a plain dot product is the logit) and k, in float32: with (a, b) =
// pairDims(layout, p, pairs), x'[a] = x[a] c - x[b] s, x'[b] = x[b] c + x[a] s (NeoX: a = p, b = p
// + pairs; GPT-J: a = 2p, b = 2p + 1, as transformers' rotate_half_llm with cos
// repeat_interleave(2)); dims >= 2 * pairs are only scaled. Rows [begin, end) of q (query) or k, a
// row being head x tokens + token, go to out, (end - begin) x headDim floats. The problem must have
// passed validateProblem.
void rotateRows(const AttentionProblem& problem, bool query, std::size_t begin, std::size_t end,
                float* out);

enum class AttentionValue { Logits, Softmax };

// Per-row results of the streaming pass (online softmax), for rows [begin, end) of one head.
struct RowStats {
  std::vector<float> max;      // largest logit of the row
  std::vector<float> sumExp;   // sum_j exp(logit_j - max); the row's peak probability is 1/sumExp
  std::vector<float> entropy;  // of the row's softmax, in nats
};

// Thrown by a backend whose cancel check (setCancelCheck) said stop: the request was dropped.
class AttentionCancelled : public std::runtime_error {
 public:
  AttentionCancelled() : std::runtime_error("attention: cancelled") {}
};

// One way to compute attention (CPU, OpenGL compute). Tiled: nothing holds an N x N buffer;
// callers ask for the rows or pooled blocks they show. A backend is used from one thread.
class AttentionBackend {
 public:
  virtual ~AttentionBackend() = default;
  virtual std::string name() const = 0;         // "cpu", "gpu"
  virtual std::string description() const = 0;  // e.g. "cpu, 2 threads, avx512"
  // Takes a problem (rotation happens here, on the backend's device); replaces the previous one.
  // Throws InputError for inconsistent shapes.
  virtual void load(const AttentionProblem& problem) = 0;
  // Streaming pass over all keys for rows [rowBegin, rowEnd) of q head `head`.
  virtual RowStats rowStats(int head, std::size_t rowBegin, std::size_t rowEnd) = 0;
  // Rows [rowBegin, rowEnd) of head `head`: (rowEnd - rowBegin) x N values, row-major.
  // Masked logits (outside the row's KeyRange) are -inf, masked probabilities 0.
  virtual void rows(int head, std::size_t rowBegin, std::size_t rowEnd, AttentionValue value,
                    float* out) = 0;
  // rows() and rowStats() of the same rows in one request. The CPU backend computes each logit
  // once (a block of rows at a time, reduced while in cache); by default the two requests.
  virtual RowStats rowsAndStats(int head, std::size_t rowBegin, std::size_t rowEnd,
                                AttentionValue value, float* out);
  // Means over block x block tiles of the N x N matrix: ceil(N/block)^2 values, row-major.
  // Softmax: masked entries count as 0. Logits: the mean over the unmasked entries of the tile,
  // -inf where a tile is entirely masked.
  virtual void pooled(int head, int block, AttentionValue value, float* out) = 0;

  int heads() const { return heads_; }
  std::size_t tokens() const { return tokens_; }

  // Asked between tiles (from the backend's worker threads too, so it must be thread-safe):
  // when it returns true the request stops there and throws AttentionCancelled. A GUI sets it
  // so that a newer request, Cancel or closing does not wait for an N x N run. Empty: never.
  void setCancelCheck(std::function<bool()> check) { cancel_ = std::move(check); }
  bool cancelRequested() const { return cancel_ && cancel_(); }

 protected:
  std::function<bool()> cancel_;
  int heads_ = 0;
  std::size_t tokens_ = 0;
};

// The one line for logits beyond float32's range: q . k / sqrt(d) over 3.4e38 is infinite, and
// what is computed from it is not attention. `where` names them ("head 0, row 3").
std::string logitOverflowMessage(const std::string& where);
// Whether values of rows or pooled blocks (logits or probabilities) hold NaN or +inf, which only
// logits past float32's range give (a masked logit is -inf, its probability 0).
bool attentionOverflowed(const float* values, std::size_t count);

// The CPU backend: float32, `threads` workers (0 = all cores), kernels for the best of
// AVX-512 / AVX2 / baseline x86-64 chosen at run time.
std::unique_ptr<AttentionBackend> makeCpuAttentionBackend(int threads = 0);

// Rows per rowsAndStats call when `rows` rows of `tokens` keys stream to a file: four of the CPU
// backend's blocks of rows per worker thread, at most 2^24 values (64 MiB) and at least one
// block. A call returns when its last block is done: with one block per thread, a thread slowed
// by the file's writer held the other back (N 16384 on 2 threads: 0.69 s with 256-row chunks,
// 0.55 s with 1024).
std::size_t attentionChunkRows(std::size_t tokens, std::size_t rows, int threads);

// The softmax rows [first, tokens) of q head `head` from a loaded backend, a block of
// attentionChunkRows rows at a time: visit(r0, r1, rows) sees rows r0..r1-1, row r at
// rows + (r - r0) * tokens. Throws InputError (logitOverflowMessage, field "q") for a block
// holding a logit past float32's range.
void forEachSoftmaxBlock(
    AttentionBackend& backend, int head, std::size_t first, int threads,
    const std::function<void(std::size_t r0, std::size_t r1, const float* rows)>& visit);

enum class BackendChoice { Auto, Cpu, Gpu };
// "auto", "cpu", "gpu"; throws InputError naming the accepted values.
BackendChoice parseBackendChoice(const std::string& text);

// Double-precision reference for tests and small N: the full (head x N x N) matrix of the
// requested value, straight from the definitions (rotation in double from the double angles,
// cos and sin times the pairs' attention factor).
std::vector<double> referenceAttention(const AttentionProblem& problem, int head,
                                       AttentionValue value);

// Checks shapes of a problem (heads, tokens, head dim, table sizes); throws InputError.
void validateProblem(const AttentionProblem& problem);

// Checks a backend request: a loaded problem, head in 0..heads-1 and rows begin:end inside
// 0:tokens. Shared by every backend so they refuse the same requests with the same message.
void checkAttentionRequest(int head, std::size_t begin, std::size_t end, int heads,
                           std::size_t tokens);

// Summary statistics of a vector (min, mean, max); all 0 for an empty one.
struct Summary3 {
  double min = 0.0, mean = 0.0, max = 0.0;
};
Summary3 summarize(const std::vector<float>& values);

}  // namespace ropescope
