// Counts the pieces of work a computation has done and passes that on to the caller's Progress
// (progress.h): serialised calls, reports only when the percentage grows, a sticky stop flag.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>

#include "ropescope/progress.h"

namespace ropescope::detail {

class ProgressMeter {
 public:
  ProgressMeter(const Progress& progress, std::size_t total) : p_(progress), total_(total) {}

  // Adds `pieces` done; returns false once the caller asked to stop (then every later call
  // returns false too, so threads can leave their loops).
  bool step(std::size_t pieces = 1) {
    if (stopped_.load(std::memory_order_relaxed)) return false;
    const std::size_t done = done_.fetch_add(pieces, std::memory_order_relaxed) + pieces;
    if (!p_.active()) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_.load(std::memory_order_relaxed)) return false;
    if (p_.cancel && p_.cancel()) {
      stopped_ = true;
      return false;
    }
    const int percent =
        total_ ? static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total_))
               : 100;
    if (p_.report && percent > lastPercent_ && percent < 100) {
      lastPercent_ = percent;
      p_.report(percent / 100.0);
    }
    return true;
  }
  bool stopped() const { return stopped_.load(); }
  // After the work: throws Cancelled (naming `what`) when stopped, else reports 1.
  void finish(const std::string& what) {
    if (stopped_) throw Cancelled(what);
    if (p_.report) p_.report(1.0);
  }

 private:
  const Progress& p_;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  int lastPercent_ = -1;
};

}  // namespace ropescope::detail
