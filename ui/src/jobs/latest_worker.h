// One background thread that runs the newest job only: the all-designs comparison and the
// metrics of a large scene, which take seconds to tens of seconds (a 250k-token picture) and
// froze the window when they ran on the GUI thread. A newer request replaces the waiting job and
// asks the running one to stop (jobs read the flag where they can: compareDesigns between two
// designs); the destructor waits for the running job to end.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ropescope::ui {

class LatestWorker {
 public:
  // A job runs on the worker thread; `stop` turns true once it is stale. Jobs hand results to the
  // GUI thread themselves (a queued call on an object that outlives the worker).
  using Job = std::function<void(const std::atomic<bool>& stop)>;

  LatestWorker();
  ~LatestWorker();
  LatestWorker(const LatestWorker&) = delete;
  LatestWorker& operator=(const LatestWorker&) = delete;

  void request(Job job);
  // Drops the waiting job and asks the running one to stop.
  void cancel();
  // Jobs that have started (tests).
  int started() const { return started_.load(); }
  // Tests: while held, jobs wait instead of starting.
  void setHeld(bool held);
  // Tests: called on the worker thread after each job, with whether it had been asked to stop.
  // Set it before the first request; it may outlive the worker (the destructor joins the thread,
  // so every started job has called it by then).
  void setJobEndHook(std::function<void(bool stopped)> hook);

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  Job waiting_;
  std::function<void(bool stopped)> jobEndHook_;
  bool running_ = false;
  bool held_ = false;
  bool quit_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<int> started_{0};
  std::thread thread_;
};

}  // namespace ropescope::ui
