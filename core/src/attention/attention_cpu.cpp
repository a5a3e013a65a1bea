// The CPU attention backend: rotation (and the keys' packing) once per load, then the kernels
// of attention_kernels.inc over blocks of rows handed to core's worker threads (thread_pool.h)
// one block at a time (causal rows cost more the later they come). Every mask arrives as one
// key range per row.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "attention_kernels.h"
#include "parallel.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/large_buffer.h"
#include "thread_pool.h"

namespace ropescope {

namespace {

// ROPESCOPE_CPU_ISA=avx2|baseline caps the choice, so tests and benchmarks can run the lower
// kernels on a machine that has AVX-512.
const detail::AttentionKernels& bestKernels() {
  const char* cap = std::getenv("ROPESCOPE_CPU_ISA");
  const std::string limit = cap ? cap : "";
  // __builtin_cpu_supports reads cpuid once; the flag set matches the file's compile flags.
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (const auto* k = detail::attentionKernelsAvx512();
      k && limit != "avx2" && limit != "baseline" && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("fma"))
    return *k;
  if (const auto* k = detail::attentionKernelsAvx2();
      k && limit != "baseline" && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return *k;
#endif
  return detail::attentionKernelsBaseline();
}

// Runs fn(task, scratch) for task in [0, count) on up to `threads` workers, each taking the next
// task when done: tiles near the end of a causal matrix cost more than early ones. Stops
// handing out tasks once `backend` is asked to cancel, and then throws AttentionCancelled.
template <typename Fn>
void runTasks(const AttentionBackend& backend, std::size_t count, int threads, Fn&& fn,
              std::size_t scratchFloats = detail::kScratchFloats) {
  const std::size_t workers = std::min<std::size_t>(std::size_t(detail::resolveThreads(threads)),
                                                    std::max<std::size_t>(count, 1));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> cancelled{false};
  auto work = [&] {
    // 64-byte aligned (see attention_kernels.inc: alignment decides Eigen's scalar/vector split).
    std::vector<float> buffer(scratchFloats + 16);
    float* scratch = buffer.data();
    while (reinterpret_cast<std::uintptr_t>(scratch) % 64 != 0) ++scratch;
    for (std::size_t t = next++; t < count; t = next++) {
      if (cancelled || backend.cancelRequested()) {
        cancelled = true;
        return;
      }
      fn(t, scratch);
    }
  };
  // `workers` loops that each take the next tile, on core's one pool (the caller is one).
  detail::ThreadPool::shared().run(workers, workers - 1, [&work](std::size_t) { work(); });
  if (cancelled) throw AttentionCancelled();
}

class CpuAttentionBackend final : public AttentionBackend {
 public:
  explicit CpuAttentionBackend(int threads)
      : threads_(detail::resolveThreads(threads)), kernels_(bestKernels()) {}

  std::string name() const override { return "cpu"; }
  std::string description() const override {
    return "cpu, " + std::to_string(threads_) + " thread" + (threads_ == 1 ? "" : "s") + ", " +
           kernels_.isa;
  }

  // q rotated; k rotated and packed for the kernels a run of keys at a time, so the rotated k is
  // never held whole (with the problem's own q/k and rotary table, the peak stays at three
  // times the q/k given).
  void load(const AttentionProblem& problem) override {
    validateProblem(problem);
    const QkTensors& in = problem.qk;
    heads_ = in.qHeads;
    group_ = in.qHeads / in.kvHeads;
    tokens_ = in.tokens;
    d_ = in.headDim;
    keyRanges_ = problemKeyRanges(problem);
    const std::size_t d = std::size_t(d_), n = tokens_, panel = kernels_.keyPanel;
    if (q_.size() != in.qCount()) q_ = LargeBuffer<float>(in.qCount());
    detail::parallelFor(std::size_t(heads_) * n, threads_, [&](std::size_t b, std::size_t e) {
      rotateRows(problem, true, b, e, q_.data() + b * d);
    });
    headKeys_ = (n + panel - 1) / panel * panel * d;
    if (keys_.size() != std::size_t(in.kvHeads) * headKeys_)
      keys_ = LargeBuffer<float>(std::size_t(in.kvHeads) * headKeys_);
    const std::size_t runs = (n + kKeyRun - 1) / kKeyRun;
    detail::parallelFor(
        std::size_t(in.kvHeads) * runs, threads_, [&](std::size_t b, std::size_t e) {
          std::vector<float> rotated(kKeyRun * d);
          for (std::size_t i = b; i < e; ++i) {
            const std::size_t h = i / runs, first = (i % runs) * kKeyRun;
            const std::size_t count = std::min(kKeyRun, n - first);
            rotateRows(problem, false, h * n + first, h * n + first + count, rotated.data());
            kernels_.packKeys(rotated.data(), count, d_, keys_.data() + h * headKeys_ + first * d);
          }
        });
  }

  RowStats rowStats(int head, std::size_t b, std::size_t e) override {
    check(head, b, e);
    RowStats st;
    st.max.resize(e - b);
    st.sumExp.resize(e - b);
    st.entropy.resize(e - b);
    const std::size_t tasks = (e - b + detail::kTileRows - 1) / detail::kTileRows;
    runTasks(*this, tasks, threads_, [&](std::size_t t, float* scratch) {
      const std::size_t r0 = b + t * detail::kTileRows, r1 = std::min(e, r0 + detail::kTileRows);
      kernels_.stats(qHead(head), kHead(head), tokens_, d_, r0, r1, keyRanges_.data(),
                     &st.max[r0 - b], &st.sumExp[r0 - b], &st.entropy[r0 - b], scratch);
    });
    return st;
  }

  void rows(int head, std::size_t b, std::size_t e, AttentionValue value, float* out) override {
    check(head, b, e);
    const std::size_t tasks = (e - b + detail::kTileRows - 1) / detail::kTileRows;
    runTasks(*this, tasks, threads_, [&](std::size_t t, float*) {
      const std::size_t r0 = b + t * detail::kTileRows, r1 = std::min(e, r0 + detail::kTileRows);
      float* o = out + (r0 - b) * tokens_;
      kernels_.logits(qHead(head), kHead(head), tokens_, d_, r0, r1, keyRanges_.data(), o);
      if (value == AttentionValue::Softmax) kernels_.softmaxRows(o, r1 - r0, tokens_);
    });
  }

  RowStats rowsAndStats(int head, std::size_t b, std::size_t e, AttentionValue value,
                        float* out) override {
    check(head, b, e);
    RowStats st;
    st.max.resize(e - b);
    st.sumExp.resize(e - b);
    st.entropy.resize(e - b);
    const std::size_t tasks = (e - b + detail::kPassRows - 1) / detail::kPassRows;
    runTasks(
        *this, tasks, threads_,
        [&](std::size_t t, float* scratch) {
          const std::size_t r0 = b + t * detail::kPassRows,
                            r1 = std::min(e, r0 + detail::kPassRows);
          kernels_.rowsWithStats(qHead(head), kHead(head), tokens_, d_, r0, r1, keyRanges_.data(),
                                 value == AttentionValue::Softmax, out + (r0 - b) * tokens_,
                                 &st.max[r0 - b], &st.sumExp[r0 - b], &st.entropy[r0 - b], scratch);
        },
        detail::passScratchFloats(tokens_));
    return st;
  }

  void pooled(int head, int block, AttentionValue value, float* out) override {
    check(head, 0, tokens_);
    if (block < 1) throw InputError("attention: pooling block must be >= 1", "block");
    const std::size_t bs = std::size_t(block), nb = (tokens_ + bs - 1) / bs;
    RowStats st;
    if (value == AttentionValue::Softmax) st = rowStats(head, 0, tokens_);
    std::vector<double> acc(nb * nb, 0.0), cnt(nb * nb, 0.0);
    // A task is a run of whole block rows (so no two tasks touch the same output cells),
    // at least one row tile long.
    const std::size_t perTask = std::max<std::size_t>(1, detail::kTileRows / bs);
    const std::size_t tasks = (nb + perTask - 1) / perTask;
    runTasks(*this, tasks, threads_, [&](std::size_t t, float* scratch) {
      const std::size_t r0 = t * perTask * bs, r1 = std::min(tokens_, r0 + perTask * bs);
      kernels_.pool(qHead(head), kHead(head), tokens_, d_, r0, r1, keyRanges_.data(), bs, nb,
                    st.max.empty() ? nullptr : st.max.data(),
                    st.sumExp.empty() ? nullptr : st.sumExp.data(), acc.data(), cnt.data(),
                    scratch);
    });
    for (std::size_t I = 0; I < nb; ++I)
      for (std::size_t J = 0; J < nb; ++J) {
        const std::size_t cell = I * nb + J;
        if (value == AttentionValue::Softmax) {
          const double rows = double(std::min(tokens_, (I + 1) * bs) - I * bs);
          const double cols = double(std::min(tokens_, (J + 1) * bs) - J * bs);
          out[cell] = static_cast<float>(acc[cell] / (rows * cols));
        } else {
          out[cell] = cnt[cell] > 0 ? static_cast<float>(acc[cell] / cnt[cell])
                                    : -std::numeric_limits<float>::infinity();
        }
      }
  }

 private:
  void check(int head, std::size_t b, std::size_t e) const {
    checkAttentionRequest(head, b, e, heads_, tokens_);
  }
  const float* qHead(int h) const { return q_.data() + std::size_t(h) * tokens_ * std::size_t(d_); }
  // Head h's kv head, packed (AttentionKernels::packKeys).
  const float* kHead(int h) const { return keys_.data() + std::size_t(h / group_) * headKeys_; }

  int threads_;
  const detail::AttentionKernels& kernels_;
  // Keys rotated and packed a run at a time: kKeyRun is a multiple of every keyPanel.
  static constexpr std::size_t kKeyRun = 2048;
  // Every value is written by load before it is read: no clearing, whole huge pages.
  LargeBuffer<float> q_, keys_;
  std::size_t headKeys_ = 0;  // packed floats of one kv head
  int group_ = 1, d_ = 0;
  std::vector<KeyRange> keyRanges_;  // per row: the keys it sees (problemKeyRanges)
};

}  // namespace

std::size_t attentionChunkRows(std::size_t tokens, std::size_t rows, int threads) {
  constexpr std::size_t kBlocksPerThread = 4, kMaxValues = std::size_t{1} << 24;
  const std::size_t block = detail::kPassRows;
  const std::size_t perThreads =
      block * kBlocksPerThread * std::size_t(detail::resolveThreads(threads));
  const std::size_t byMemory = kMaxValues / std::max<std::size_t>(tokens, 1) / block * block;
  return std::min(rows, std::max(block, std::min(perThreads, byMemory)));
}

std::unique_ptr<AttentionBackend> makeCpuAttentionBackend(int threads) {
  return std::make_unique<CpuAttentionBackend>(threads);
}

}  // namespace ropescope
