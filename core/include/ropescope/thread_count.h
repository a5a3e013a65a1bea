// How many CPU worker threads a computation may be asked for: the one range of the command
// line's --threads, the Python module's threads= and the cap of core's worker pool.
#pragma once

namespace ropescope {

// 0 means all cores; at most kMaxThreads (results are the same bits for any count).
inline constexpr int kMaxThreads = 256;

}  // namespace ropescope
