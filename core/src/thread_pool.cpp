// The persistent worker pool behind parallelFor (see thread_pool.h).
#include "thread_pool.h"

#include <unistd.h>

#include <algorithm>

#include "ropescope/thread_count.h"

namespace ropescope::detail {

namespace {
// More helpers than this are never started, whatever a caller asks for.
constexpr std::size_t kMaxWorkers = kMaxThreads;
}  // namespace

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool;
  return pool;
}

std::size_t ThreadPool::workers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_.size();
}

ThreadPool::~ThreadPool() {
  if (owner_ != 0 && owner_ != static_cast<long>(::getpid())) {
    // A forked child: the workers belong to the parent; their handles can be neither joined nor
    // destroyed here.
    new std::vector<std::thread>(std::move(threads_));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::execute(std::unique_lock<std::mutex>& lock, Batch* batch, std::size_t index) {
  lock.unlock();
  std::exception_ptr error;
  try {
    batch->call(batch->ctx, index);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  if (error && !batch->error) batch->error = error;
  if (++batch->done == batch->count) finished_.notify_all();
}

bool ThreadPool::take(Batch*& batch, std::size_t& index) {
  if (queue_.empty()) return false;
  batch = queue_.front();
  index = batch->next++;
  if (batch->next == batch->count) queue_.pop_front();
  return true;
}

void ThreadPool::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    Batch* batch = nullptr;
    std::size_t index = 0;
    if (!take(batch, index)) return;  // stopping, nothing queued
    execute(lock, batch, index);
  }
}

void ThreadPool::runErased(std::size_t count, std::size_t helpers, void (*call)(void*, std::size_t),
                           void* ctx) {
  if (count == 0) return;
  const long pid = static_cast<long>(::getpid());
  const long owner = owner_;
  if (helpers == 0 || count == 1 || (owner != 0 && owner != pid)) {
    // Alone, or in a forked child (the parent's workers do not exist here and the lock may have
    // been held at the fork): every task on the caller, in order.
    for (std::size_t i = 0; i < count; ++i) call(ctx, i);
    return;
  }
  Batch batch{call, ctx, count, 0, 0, nullptr};
  std::unique_lock<std::mutex> lock(mutex_);
  owner_ = pid;
  const std::size_t want = std::min({helpers, count - 1, kMaxWorkers});
  while (threads_.size() < want) threads_.emplace_back([this] { workerLoop(); });
  queue_.push_back(&batch);
  wake_.notify_all();
  // Take this batch's tasks too, until all are handed out, then wait for the workers' ones.
  while (batch.next < batch.count) {
    const std::size_t index = batch.next++;
    if (batch.next == batch.count) queue_.erase(std::find(queue_.begin(), queue_.end(), &batch));
    execute(lock, &batch, index);
  }
  finished_.wait(lock, [&batch] { return batch.done == batch.count; });
  if (batch.error) std::rethrow_exception(batch.error);
}

}  // namespace ropescope::detail
