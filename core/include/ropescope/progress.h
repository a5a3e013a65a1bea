// Progress reports and cancel requests for long metric computations, free of any UI toolkit: the
// caller's two callbacks, which the computation calls between pieces of work.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace ropescope {

// Thrown by a computation whose Progress::cancel said stop: it returns no result.
class Cancelled : public std::runtime_error {
 public:
  explicit Cancelled(const std::string& what) : std::runtime_error(what + ": cancelled") {}
};

// Why a result of a computation the user cancelled is missing (shown in its place, never a 0).
inline constexpr const char* kCancelledReason = "not computed: cancelled";

// Both callbacks may be empty (never cancelled, nothing reported). They are called from the
// computation's threads, never two at once, so they need no locking of their own, but they must
// be quick: `cancel` is polled between pieces of work (a few milliseconds each), `report` gets
// the fraction done in [0, 1], increasing, at most about 100 times per call plus once at 1.
struct Progress {
  std::function<bool()> cancel;
  std::function<void(double)> report;
  bool active() const { return cancel || report; }
};

}  // namespace ropescope
