// A static parallel-for over index ranges on core's persistent thread pool (thread_pool.h);
// results stay deterministic because callers write per-index outputs and reduce them in index
// order afterwards, and the split into ranges depends on n and the thread count only.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>

#include "thread_pool.h"

namespace ropescope::detail {

inline int resolveThreads(int threads) {
  if (threads > 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

// fn(begin, end) over [0, n) split into contiguous chunks, one per thread: the caller runs
// chunks too, and at most threads - 1 pool workers help.
template <typename Fn>
void parallelFor(std::size_t n, int threads, Fn&& fn) {
  const std::size_t t = std::min<std::size_t>(resolveThreads(threads), std::max<std::size_t>(n, 1));
  if (t <= 1) {
    fn(std::size_t{0}, n);
    return;
  }
  const std::size_t chunk = (n + t - 1) / t;
  ThreadPool::shared().run(t, t - 1, [&fn, n, chunk](std::size_t i) {
    fn(std::min(n, i * chunk), std::min(n, (i + 1) * chunk));
  });
}

// fn(begin, end) over [0, n) in `pieces` contiguous ranges, taken one at a time by the caller and
// up to threads - 1 pool workers (each of the t tasks pulls the next piece number): a thread
// slowed by other work on its core takes fewer of them. Each range is set by n and pieces only,
// whatever the thread count.
template <typename Fn>
void parallelForPieces(std::size_t n, std::size_t pieces, int threads, Fn&& fn) {
  pieces = std::clamp<std::size_t>(pieces, 1, std::max<std::size_t>(n, 1));
  const std::size_t t = std::min<std::size_t>(resolveThreads(threads), pieces);
  const std::size_t size = (n + pieces - 1) / pieces;
  std::atomic<std::size_t> next{0};
  auto work = [&fn, &next, n, size, pieces](std::size_t) {
    for (std::size_t i = next++; i < pieces; i = next++)
      fn(std::min(n, i * size), std::min(n, (i + 1) * size));
  };
  if (t <= 1) {
    work(0);
    return;
  }
  ThreadPool::shared().run(t, t - 1, work);
}

}  // namespace ropescope::detail
