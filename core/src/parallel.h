// A minimal static parallel-for over index ranges with std::thread; results stay deterministic
// because callers write per-index outputs and reduce them in index order afterwards.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace ropescope::detail {

inline int resolveThreads(int threads) {
  if (threads > 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

// fn(begin, end) over [0, n) split into contiguous chunks, one per thread.
template <typename Fn>
void parallelFor(std::size_t n, int threads, Fn&& fn) {
  const std::size_t t = std::min<std::size_t>(resolveThreads(threads), std::max<std::size_t>(n, 1));
  if (t <= 1) {
    fn(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(t - 1);
  const std::size_t chunk = (n + t - 1) / t;
  for (std::size_t i = 1; i < t; ++i) {
    const std::size_t b = std::min(n, i * chunk), e = std::min(n, (i + 1) * chunk);
    pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  fn(std::size_t{0}, std::min(n, chunk));
  for (std::thread& th : pool) th.join();
}

}  // namespace ropescope::detail
