#include "jobs/latest_worker.h"

#include <utility>

#include "platform/thread_priority.h"

namespace ropescope::ui {

LatestWorker::LatestWorker(QObject* receiver, Priority priority)
    : receiver_(receiver),
      issued_(std::make_shared<std::atomic<std::uint64_t>>(0)),
      thread_([this, priority] { run(priority); }) {}

LatestWorker::~LatestWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    stop_ = true;
    waiting_ = nullptr;
    ++*issued_;
  }
  wake_.notify_all();
  thread_.join();
}

void LatestWorker::request(Job job) {
  requestAfter(0, std::move(job));
}

void LatestWorker::requestAfter(int settleMs, Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_ = std::move(job);
    waitingTicket_ = ++*issued_;
    lastRequest_ = waitingTicket_;
    notBefore_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(settleMs);
    if (running_) stop_ = true;  // stale: the newer one starts as soon as it ends
  }
  ++requested_;
  wake_.notify_all();
}

void LatestWorker::cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_ = nullptr;
    ++*issued_;
    if (running_) stop_ = true;
  }
  wake_.notify_all();
}

bool LatestWorker::busy() {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_ || waiting_ != nullptr;
}

void LatestWorker::setAtExit(std::function<void()> atExit) {
  std::lock_guard<std::mutex> lock(mutex_);
  atExit_ = std::move(atExit);
}

void LatestWorker::setHeld(bool held) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = held;
  }
  wake_.notify_all();
}

void LatestWorker::setJobEndHook(std::function<void(bool stopped)> hook) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobEndHook_ = std::move(hook);
}

void LatestWorker::setJobStartHook(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobStartHook_ = std::move(hook);
}

void LatestWorker::setSettleHook(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mutex_);
  settleHook_ = std::move(hook);
}

void LatestWorker::run(Priority priority) {
  if (priority == Priority::Low) lowerThisThreadPriority();  // where refused: as fast, not slower
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return quit_ || (waiting_ && !held_); });
    if (quit_) break;
    if (std::chrono::steady_clock::now() < notBefore_) {
      // Settling: a newer request (its own pause), cancel() or the end ends the wait early.
      const std::uint64_t ticket = waitingTicket_;
      if (settleHook_) settleHook_();
      wake_.wait_until(lock, notBefore_,
                       [this, ticket] { return quit_ || !waiting_ || waitingTicket_ != ticket; });
      continue;
    }
    Job job = std::move(waiting_);
    waiting_ = nullptr;
    const Context context(stop_, receiver_, issued_, waitingTicket_);
    running_ = true;
    stop_ = false;
    ++started_;
    const std::function<void(bool)> hook = jobEndHook_;
    const std::function<void()> startHook = jobStartHook_;
    lock.unlock();
    if (startHook) startHook();
    job(context);
    job = nullptr;  // its captures (a scene copy) go on this thread, not under the lock
    if (hook) hook(stop_.load());
    lock.lock();
    running_ = false;
  }
  const std::function<void()> atExit = std::move(atExit_);
  lock.unlock();
  if (atExit) atExit();
}

}  // namespace ropescope::ui
