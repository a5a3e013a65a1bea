// The one background-job mechanism of the ui: a thread that runs the newest job
// only. The all-designs comparison, the metrics of a large scene, the compare views and the
// attention preview take from milliseconds to tens of seconds (a 250k-token picture) and froze
// the window when they ran on the GUI thread.
//
// - Newest wins: a request replaces the waiting job and asks the running one to stop (jobs read
//   `stop` where they can: compareDesigns between two designs, attention between tiles).
// - Results on the receiver's thread: a job hands what it made to `post`, which runs it on the
//   receiver's thread only if no newer request or cancel() came meanwhile and the receiver
//   still exists; `tell` runs there whatever came (progress a view must hear of, "dropped").
// - Edits settle first where asked: requestAfter(ms, job) starts the job only once `ms` have
//   passed without a newer request, so that a burst of edits (typing, wheel steps, a dragged
//   slider) is one job; the wait is the worker's, not a timer of each view.
// - One thread per worker, the same for every job: a GL context made by one job is current in
//   the next (the attention backend's), and `setAtExit` lets its owner release it there. A
//   worker made with Priority::Low runs its jobs on a thread that yields the CPUs to the window.
// The destructor drops the waiting job, stops the running one and waits for it to end.
#pragma once

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace ropescope::ui {

class LatestWorker {
 public:
  // What a running job sees: whether it went stale, and the way back to the receiver's thread.
  class Context {
   public:
    const std::atomic<bool>& stop;
    // Runs `f` on the receiver's thread, unless the job is stale by then (newest wins).
    template <class F>
    void post(F f) const {
      QMetaObject::invokeMethod(
          receiver_,
          [issued = issued_, ticket = ticket_, f = std::move(f)]() mutable {
            if (issued->load() == ticket) f();
          },
          Qt::QueuedConnection);
    }
    // Runs `f` on the receiver's thread even when the job went stale.
    template <class F>
    void tell(F f) const {
      QMetaObject::invokeMethod(receiver_, std::move(f), Qt::QueuedConnection);
    }
    // Whether this job is still the newest request (its post would run).
    bool newest() const { return issued_->load() == ticket_; }
    // The job's number: its request's (lastRequest() when it was made); later requests have
    // larger ones.
    std::uint64_t ticket() const { return ticket_; }

   private:
    friend class LatestWorker;
    Context(const std::atomic<bool>& s, QObject* receiver,
            std::shared_ptr<std::atomic<std::uint64_t>> issued, std::uint64_t ticket)
        : stop(s), receiver_(receiver), issued_(std::move(issued)), ticket_(ticket) {}
    QObject* receiver_;
    std::shared_ptr<std::atomic<std::uint64_t>> issued_;
    std::uint64_t ticket_;
  };
  using Job = std::function<void(const Context& job)>;

  // How the worker's thread competes for the CPUs: Normal as the window's own threads; Low
  // yields them to the window (lowerThisThreadPriority), for work the window need not wait for.
  enum class Priority { Normal, Low };

  // Results of the jobs go to `receiver`'s thread (it must outlive the worker, or be a QObject
  // whose deletion drops them: queued calls to a deleted object are not delivered).
  explicit LatestWorker(QObject* receiver, Priority priority = Priority::Normal);
  ~LatestWorker();
  LatestWorker(const LatestWorker&) = delete;
  LatestWorker& operator=(const LatestWorker&) = delete;

  void request(Job job);
  // The same once `settleMs` milliseconds have passed without a newer request (or cancel()).
  void requestAfter(int settleMs, Job job);
  // The number of the newest request (Context::ticket of its job), 0 before the first.
  std::uint64_t lastRequest() const { return lastRequest_.load(); }
  // Drops the waiting job, asks the running one to stop, and drops what it still posts.
  void cancel();
  // Runs on the worker's thread as it ends (a GL context is destroyed where it was made).
  void setAtExit(std::function<void()> atExit);

  // Jobs that have started (tests).
  int started() const { return started_.load(); }
  // Requests made so far, each either started, replaced by a newer one or cancelled (tests: a
  // test waits for a request instead of for a debounce's time).
  int requested() const { return requested_.load(); }
  // Whether a job waits or runs (tests).
  bool busy();
  // Tests: while held, jobs wait instead of starting.
  void setHeld(bool held);
  // Tests: called on the worker thread after each job, with whether it had been asked to stop.
  // Set it before the first request; it may outlive the worker (the destructor joins the thread,
  // so every started job has called it by then).
  void setJobEndHook(std::function<void(bool stopped)> hook);
  // Tests: called on the worker thread as each job starts (it runs, a newer request or cancel()
  // stops it), before the job's own work; the same lifetime rule as the end hook.
  void setJobStartHook(std::function<void()> hook);
  // Tests: called on the worker thread as a job begins to wait for edits to settle (under the
  // worker's lock: it must not call the worker); the same lifetime rule as the end hook.
  void setSettleHook(std::function<void()> hook);

 private:
  void run(Priority priority);

  QObject* receiver_;
  std::shared_ptr<std::atomic<std::uint64_t>> issued_;  // the ticket of the newest request
  std::mutex mutex_;
  std::condition_variable wake_;
  Job waiting_;
  std::uint64_t waitingTicket_ = 0;
  std::chrono::steady_clock::time_point notBefore_;  // when the waiting job may start
  std::atomic<std::uint64_t> lastRequest_{0};
  std::function<void(bool stopped)> jobEndHook_;
  std::function<void()> jobStartHook_;
  std::function<void()> settleHook_;
  std::function<void()> atExit_;
  bool running_ = false;
  bool held_ = false;
  bool quit_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<int> started_{0};
  std::atomic<int> requested_{0};
  std::thread thread_;
};

}  // namespace ropescope::ui
