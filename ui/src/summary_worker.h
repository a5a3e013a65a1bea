// The all-designs comparison (every design's PTD and bias spread) of a large scene, off the GUI
// thread. For a 250k-token picture it takes tens of seconds, and on the GUI thread it froze the
// window that long after every pause in editing. One worker thread runs the newest request
// only; a newer request or cancel() stops the running one between two designs, and the
// destructor waits at most for the design in progress.
#pragma once

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::ui {

class SummaryWorker : public QObject {
  Q_OBJECT

 public:
  explicit SummaryWorker(QObject* parent = nullptr);
  ~SummaryWorker() override;

  // Compares the designs of `scene` in the background; finished(generation, ...) follows on the
  // GUI thread unless a newer request or cancel() came first.
  void request(const Scene& scene, std::uint64_t generation);
  // Drops the waiting request and stops the running one (its result is never delivered).
  void cancel();
  // Requests that have started computing (tests).
  int started() const { return started_.load(); }
  // Tests: while held, requests wait instead of starting.
  void setHeld(bool held);

 signals:
  void finished(std::uint64_t generation, const std::vector<ropescope::DesignSummary>& rows,
                const QString& error);

 private:
  struct Job {
    Scene scene;
    std::uint64_t generation = 0;
  };
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> waiting_;
  bool running_ = false;
  bool held_ = false;
  bool quit_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<int> started_{0};
  std::thread thread_;
};

}  // namespace ropescope::ui
