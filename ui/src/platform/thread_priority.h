// Background work that yields the CPUs to the window: on a 2-core machine a worker computing at
// the window's priority took half the time llvmpipe needed to draw the 3-D view.
#pragma once

namespace ropescope::ui {

// Gives the calling thread (only) the lowest scheduling priority the system allows an
// unprivileged thread (Linux: nice 19). False where there is no such call or it was refused.
bool lowerThisThreadPriority();

// The calling thread's nice value on Linux; 0 elsewhere (tests).
int thisThreadNice();

}  // namespace ropescope::ui
