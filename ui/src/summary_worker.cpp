#include "summary_worker.h"

#include <QThread>

#include <algorithm>

namespace ropescope::ui {

SummaryWorker::SummaryWorker(QObject* parent) : QObject(parent) {
  thread_ = std::thread([this] { run(); });
}

SummaryWorker::~SummaryWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    stop_ = true;
    waiting_.reset();
  }
  wake_.notify_all();
  thread_.join();
}

void SummaryWorker::request(const Scene& scene, std::uint64_t generation) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_ = Job{scene, generation};
    if (running_) stop_ = true;  // stale: the newer one starts as soon as it stops
  }
  wake_.notify_all();
}

void SummaryWorker::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  waiting_.reset();
  if (running_) stop_ = true;
}

void SummaryWorker::setHeld(bool held) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = held;
  }
  wake_.notify_all();
}

void SummaryWorker::run() {
  const int threads = std::max(1, QThread::idealThreadCount());
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return quit_ || (waiting_ && !held_); });
    if (quit_) return;
    Job job = std::move(*waiting_);
    waiting_.reset();
    running_ = true;
    stop_ = false;
    ++started_;
    lock.unlock();
    std::vector<DesignSummary> rows;
    QString error;
    try {
      rows = compareDesigns(job.scene, threads, &stop_);
    } catch (const std::exception& e) {
      rows.clear();
      error = QString::fromStdString(e.what());
    }
    lock.lock();
    running_ = false;
    // Under the lock: the destructor sets quit_ under it too, so nothing is posted to an object
    // being destroyed (what is posted before is dropped with the object).
    if (!stop_ && !quit_) {
      QMetaObject::invokeMethod(
          this,
          [this, generation = job.generation, rows = std::move(rows), error] {
            emit finished(generation, rows, error);
          },
          Qt::QueuedConnection);
    }
  }
}

}  // namespace ropescope::ui
