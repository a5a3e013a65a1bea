// core's persistent thread pool (core/src/thread_pool.h) and parallelFor over it: every task runs
// once, workers are started once and kept, errors reach the caller, nested and concurrent loops
// finish, a forked child still computes, and the metrics are byte-identical for any thread count.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "../../core/src/parallel.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

using namespace ropescope;

namespace {

bool sameBytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

bool sameBytes(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST(ThreadPool, RunsEveryTaskExactlyOnce) {
  for (std::size_t count : {1u, 2u, 5u, 64u, 1000u})
    for (std::size_t helpers : {0u, 1u, 3u, 6u}) {
      std::vector<std::atomic<int>> hits(count);
      detail::ThreadPool::shared().run(count, helpers, [&](std::size_t i) { ++hits[i]; });
      for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(hits[i].load(), 1) << "count " << count << " helpers " << helpers << " i " << i;
    }
}

TEST(ThreadPool, StartsWorkersOnceAndKeepsThem) {
  detail::ThreadPool& pool = detail::ThreadPool::shared();
  pool.run(8, 4, [](std::size_t) {});
  const std::size_t started = pool.workers();
  EXPECT_GE(started, 4u);
  for (int i = 0; i < 50; ++i) pool.run(8, 4, [](std::size_t) {});
  EXPECT_EQ(pool.workers(), started);
}

TEST(ThreadPool, ATaskErrorReachesTheCallerAndThePoolStillWorks) {
  detail::ThreadPool& pool = detail::ThreadPool::shared();
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run(16, 3,
                        [&](std::size_t i) {
                          ++ran;
                          if (i == 5) throw std::runtime_error("task 5");
                        }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 16);  // the other tasks still ran: no result is left half written
  std::atomic<int> after{0};
  pool.run(16, 3, [&](std::size_t) { ++after; });
  EXPECT_EQ(after.load(), 16);
}

TEST(ThreadPool, NestedAndConcurrentLoopsFinish) {
  std::atomic<long> total{0};
  auto outer = [&total] {
    detail::parallelFor(6, 3, [&total](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        detail::parallelFor(100, 4, [&total](std::size_t ib, std::size_t ie) {
          total += static_cast<long>(ie - ib);
        });
    });
  };
  std::thread other(outer);
  outer();
  other.join();
  EXPECT_EQ(total.load(), 2 * 6 * 100);
}

TEST(ThreadPool, AForkedChildComputesWithoutTheParentsWorkers) {
  std::atomic<int> warm{0};
  detail::ThreadPool::shared().run(4, 3, [&](std::size_t) { ++warm; });
  ASSERT_EQ(warm.load(), 4);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::vector<int> out(1000, 0);
    detail::parallelFor(out.size(), 4, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) out[i] = static_cast<int>(i);
    });
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i] != static_cast<int>(i)) _exit(1);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ParallelFor, SceneMetricsAreByteIdenticalForEveryThreadCount) {
  for (const char* design : {"circle", "mrope"}) {
    Scene scene = defaultScene();
    scene.layout = parseLayoutSpec("t301,i17x23,t203");
    scene.design = design;
    scene.designParams = {};
    const SceneMetrics one = computeSceneMetrics(scene, 300, 1);
    ASSERT_TRUE(one.bias.defined()) << design;
    for (int threads : {2, 3, 7}) {
      const SceneMetrics m = computeSceneMetrics(scene, 300, threads);
      EXPECT_TRUE(sameBytes(m.ptd.ptd, one.ptd.ptd)) << design << " " << threads;
      EXPECT_TRUE(sameBytes(m.ptd.perText, one.ptd.perText)) << design << " " << threads;
      EXPECT_TRUE(sameBytes(m.bias.spread, one.bias.spread)) << design << " " << threads;
      EXPECT_TRUE(sameBytes(m.bias.perText, one.bias.perText)) << design << " " << threads;
      EXPECT_TRUE(sameBytes(m.bias.meanBias, one.bias.meanBias)) << design << " " << threads;
      for (int a = 0; a < 3; ++a)
        EXPECT_TRUE(sameBytes(m.decayAxis[a], one.decayAxis[a])) << design << " axis " << a;
      EXPECT_TRUE(sameBytes(m.selectedBias, one.selectedBias)) << design << " " << threads;
    }
  }
}

// parallelForPieces: every index once, in ranges set by n and the number of pieces alone (the
// same ranges on 1, 2 and 5 threads; the last ones may be empty).
TEST(ParallelFor, PiecesCoverEveryIndexOnceInRangesThatIgnoreTheThreadCount) {
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{32}, std::size_t{33}})
    for (std::size_t pieces : {std::size_t{1}, std::size_t{4}, std::size_t{32}, std::size_t{50}}) {
      std::vector<std::vector<std::pair<std::size_t, std::size_t>>> seen;
      for (int threads : {1, 2, 5}) {
        std::vector<std::atomic<int>> hits(n);
        std::mutex lock;
        std::vector<std::pair<std::size_t, std::size_t>> ranges;
        ropescope::detail::parallelForPieces(n, pieces, threads, [&](std::size_t b, std::size_t e) {
          for (std::size_t i = b; i < e; ++i) ++hits[i];
          const std::lock_guard<std::mutex> hold(lock);
          ranges.emplace_back(b, e);
        });
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(hits[i].load(), 1) << n << " " << pieces << " " << threads << " at " << i;
        std::sort(ranges.begin(), ranges.end());
        seen.push_back(ranges);
      }
      EXPECT_EQ(seen[1], seen[0]) << n << " items, " << pieces << " pieces";
      EXPECT_EQ(seen[2], seen[0]) << n << " items, " << pieces << " pieces";
    }
}

// At most `threads` threads run the pieces, even when the pool has grown larger for an earlier
// loop (its idle workers must not take pieces of a two-thread call).
TEST(ParallelFor, PiecesRunOnNoMoreThreadsThanAskedFor) {
  std::atomic<int> spin{0};
  ropescope::detail::parallelFor(6, 6, [&](std::size_t, std::size_t) {
    for (int i = 0; i < 100000; ++i) spin.fetch_add(1, std::memory_order_relaxed);
  });
  for (int round = 0; round < 20; ++round) {
    std::mutex lock;
    std::set<std::thread::id> ran;
    ropescope::detail::parallelForPieces(64, 64, 2, [&](std::size_t, std::size_t) {
      for (int i = 0; i < 2000; ++i) spin.fetch_add(1, std::memory_order_relaxed);
      const std::lock_guard<std::mutex> hold(lock);
      ran.insert(std::this_thread::get_id());
    });
    ASSERT_LE(ran.size(), 2u) << "round " << round;
  }
}
