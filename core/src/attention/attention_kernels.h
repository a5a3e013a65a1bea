// The CPU attention kernels behind raw-pointer entry points, compiled once per instruction set
// (attention_kernels_{avx512,avx2,baseline}.cpp) and chosen at run time by attention_cpu.cpp.
#pragma once

#include <cstddef>

namespace ropescope::detail {

// Tile sizes: a 256 x 512 float logits tile (512 KiB) stays in L2 next to the packed q/k panels,
// and was the fastest of 64..256 x 256..2048 for d = 128 (Eigen GEBP, AVX-512 and AVX2).
inline constexpr std::size_t kTileRows = 256;
inline constexpr std::size_t kTileCols = 512;
inline constexpr std::size_t kScratchFloats = kTileRows * kTileCols + kTileCols;
// Rows per task of the one-pass rows-and-statistics kernel: a 128 x 16384 block of logits is
// 8 MiB, still in the last-level cache when its rows are reduced and softmaxed right after the
// product wrote them. 64 rows were a third slower (the product packs the keys once per block).
inline constexpr std::size_t kPassRows = 128;
// Scratch of that kernel for rows of n keys: one aligned row.
inline std::size_t passScratchFloats(std::size_t n) {
  return (n + 15) / 16 * 16;
}

// q points at head row 0 (rows of d floats, already rotated and scaled by 1/sqrt(d)), k at the
// matching kv head's row 0; n is the token count. Rows are absolute indices into q.
struct AttentionKernels {
  const char* isa;
  // Online softmax over all keys for rows [r0, r1): max logit, sum of exp(l - max), entropy.
  // Outputs are indexed from 0 (= row r0). scratch holds kScratchFloats floats.
  void (*stats)(const float* q, const float* k, std::size_t n, int d, std::size_t r0,
                std::size_t r1, bool causal, float* max, float* sum, float* entropy,
                float* scratch);
  // Logits of rows [r0, r1) into out ((r1 - r0) x n, row-major); masked entries -inf.
  void (*logits)(const float* q, const float* k, std::size_t n, int d, std::size_t r0,
                 std::size_t r1, bool causal, float* out);
  // Rows [r0, r1) written into out ((r1 - r0) x n) as logits or, with softmax, probabilities,
  // and their max, sum and entropy as stats() gives them, from one product: each logit is
  // computed once. scratch holds passScratchFloats(n) floats, 64-byte aligned.
  void (*rowsWithStats)(const float* q, const float* k, std::size_t n, int d, std::size_t r0,
                        std::size_t r1, bool causal, bool softmax, float* out, float* max,
                        float* sum, float* entropy, float* scratch);
  // In place: each of `rows` rows of n logits becomes its softmax (-inf entries become 0).
  void (*softmaxRows)(float* rows, std::size_t count, std::size_t n);
  // Adds the values of rows [r0, r1) into block sums acc[(r / block) * nb + c / block] and the
  // number of unmasked entries into cnt. rowMax / rowSum (indexed by absolute row) turn logits
  // into probabilities; nullptr keeps logits.
  void (*pool)(const float* q, const float* k, std::size_t n, int d, std::size_t r0, std::size_t r1,
               bool causal, std::size_t block, std::size_t nb, const float* rowMax,
               const float* rowSum, double* acc, double* cnt, float* scratch);
};

// nullptr when this build could not compile that instruction set in (other compilers/flags).
const AttentionKernels* attentionKernelsAvx512();
const AttentionKernels* attentionKernelsAvx2();
const AttentionKernels& attentionKernelsBaseline();

}  // namespace ropescope::detail
