// core's one pool of worker threads, started on first use and kept for the life of the process,
// so a parallel loop costs a wake-up rather than a thread start per call.
//
// run(count, helpers, task) calls task(i) once for every i in [0, count) and returns when all
// have finished. The caller takes tasks itself while it waits, so a loop always finishes even when
// every worker is busy (nested loops, concurrent callers) or gone (a forked child: there the
// caller runs every task). Which thread runs a task never changes what the task computes: callers
// that want bit-identical results for any thread count fix the split before calling.
// The pool stops and joins its workers when the process exits (static destruction).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace ropescope::detail {

class ThreadPool {
 public:
  // The process's pool (one per process, created on first call).
  static ThreadPool& shared();

  // Calls task(i) for i in [0, count), on the caller and on up to `helpers` workers; rethrows the
  // first exception a task threw once all tasks have ended.
  template <typename Task>
  void run(std::size_t count, std::size_t helpers, Task&& task) {
    runErased(
        count, helpers,
        [](void* ctx, std::size_t i) { (*static_cast<std::remove_reference_t<Task>*>(ctx))(i); },
        &task);
  }

  // Workers started so far (they are kept, idle on a condition variable, between loops).
  std::size_t workers() const;

  ThreadPool() = default;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool();

 private:
  struct Batch {
    void (*call)(void*, std::size_t);
    void* ctx;
    std::size_t count;
    std::size_t next = 0;  // next task to hand out
    std::size_t done = 0;  // tasks finished
    std::exception_ptr error;
  };

  void runErased(std::size_t count, std::size_t helpers, void (*call)(void*, std::size_t),
                 void* ctx);
  // Hands out task `next` of the front batch; caller holds the lock. Returns false when empty.
  bool take(Batch*& batch, std::size_t& index);
  void execute(std::unique_lock<std::mutex>& lock, Batch* batch, std::size_t index);
  void workerLoop();

  mutable std::mutex mutex_;
  std::condition_variable wake_;      // workers: a batch is queued, or stop
  std::condition_variable finished_;  // callers: a batch's last task ended
  std::deque<Batch*> queue_;          // batches with tasks not yet handed out
  std::vector<std::thread> threads_;
  bool stop_ = false;
  std::atomic<long> owner_{0};  // process that started the workers (a forked child has none)
};

}  // namespace ropescope::detail
