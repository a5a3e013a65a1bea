// Background work that yields the CPUs to the window: on a 2-core machine a worker computing at
// the window's priority took half the time llvmpipe needed to draw the 3-D view.
#pragma once

namespace ropescope::ui {

// Gives the calling thread (only) a low scheduling priority (Linux: nice 10, a tenth of a
// nice-0 thread's share). Not the lowest: at nice 19 (1.5 %) a spread on a machine busy with
// other work did not finish in 20 minutes. False where there is no such call or it was refused.
inline constexpr int kLowNice = 10;
bool lowerThisThreadPriority();

// The calling thread's nice value on Linux; 0 elsewhere (tests).
int thisThreadNice();

}  // namespace ropescope::ui
