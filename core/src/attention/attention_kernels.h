// The CPU attention kernels behind raw-pointer entry points, compiled once per instruction set
// (attention_kernels_{avx512,avx2,baseline}.cpp) and chosen at run time by attention_cpu.cpp.
#pragma once

#include <cstddef>

#include "ropescope/attention.h"

namespace ropescope::detail {

// Tile sizes of the statistics and pooling passes: a 256 x 512 float logits tile (512 KiB) stays
// in L2. kTileCols is a multiple of every copy's keyPanel.
inline constexpr std::size_t kTileRows = 256;
inline constexpr std::size_t kTileCols = 512;
inline constexpr std::size_t kScratchFloats = kTileRows * kTileCols + kTileCols;
// Rows per task of the one-pass rows-and-statistics kernel: a 128 x 16384 block of logits is
// 8 MiB, still in the last-level cache when its rows are reduced and softmaxed right after the
// product wrote them. 64 rows were a fifth slower (N 16384, d 128, one thread: 111 against 135
// GFLOP/s): each block reads all of the packed keys again.
inline constexpr std::size_t kPassRows = 128;
// Scratch of that kernel for rows of n keys: one aligned row.
inline std::size_t passScratchFloats(std::size_t n) {
  return (n + 15) / 16 * 16;
}

// q points at head row 0 (rows of d floats, already rotated and scaled), kp at the matching kv
// head's keys packed by packKeys; n is the token count; keys[r] the keys absolute row r sees
// (every entry outside it is masked: -inf logit, 0 probability). Rows are absolute indices
// into q. Every logit is one chain of d multiply-adds in depth order, whichever entry point,
// tile or thread computes it, so all of them give the same logit bit for bit.
struct AttentionKernels {
  const char* isa;
  // Keys are packed in panels of keyPanel: packKeys writes ceil(n / keyPanel) * keyPanel * d
  // floats from k's n rows of d. Packing a head's keys in runs of a multiple of keyPanel, each
  // at kp + first * d, gives the same panels as packing them at once.
  std::size_t keyPanel;
  void (*packKeys)(const float* k, std::size_t n, int d, float* kp);
  // Online softmax over all keys for rows [r0, r1): max logit, sum of exp(l - max), entropy.
  // Outputs are indexed from 0 (= row r0). scratch holds kScratchFloats floats.
  void (*stats)(const float* q, const float* kp, std::size_t n, int d, std::size_t r0,
                std::size_t r1, const KeyRange* keys, float* max, float* sum, float* entropy,
                float* scratch);
  // Logits of rows [r0, r1) into out ((r1 - r0) x n, row-major); masked entries -inf.
  void (*logits)(const float* q, const float* kp, std::size_t n, int d, std::size_t r0,
                 std::size_t r1, const KeyRange* keys, float* out);
  // Rows [r0, r1) written into out ((r1 - r0) x n) as logits or, with softmax, probabilities,
  // and their max, sum and entropy as stats() gives them, from one product: each logit is
  // computed once. scratch holds passScratchFloats(n) floats, 64-byte aligned.
  void (*rowsWithStats)(const float* q, const float* kp, std::size_t n, int d, std::size_t r0,
                        std::size_t r1, const KeyRange* keys, bool softmax, float* out, float* max,
                        float* sum, float* entropy, float* scratch);
  // In place: each of `rows` rows of n logits becomes its softmax (-inf entries become 0).
  void (*softmaxRows)(float* rows, std::size_t count, std::size_t n);
  // Adds the values of rows [r0, r1) into block sums acc[(r / block) * nb + c / block] and the
  // number of unmasked entries into cnt. rowMax / rowSum (indexed by absolute row) turn logits
  // into probabilities; nullptr keeps logits.
  void (*pool)(const float* q, const float* kp, std::size_t n, int d, std::size_t r0,
               std::size_t r1, const KeyRange* keys, std::size_t block, std::size_t nb,
               const float* rowMax, const float* rowSum, double* acc, double* cnt, float* scratch);
};

// nullptr when this build could not compile that instruction set in (other compilers/flags).
const AttentionKernels* attentionKernelsAvx512();
const AttentionKernels* attentionKernelsAvx2();
const AttentionKernels& attentionKernelsBaseline();

}  // namespace ropescope::detail
