#include "platform/thread_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace ropescope::ui {

bool lowerThisThreadPriority() {
#if defined(__linux__)
  // On Linux a nice value belongs to a thread (its id), not to the whole process.
  return setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kLowNice) == 0;
#else
  return false;
#endif
}

int thisThreadNice() {
#if defined(__linux__)
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  return errno == 0 ? nice : 0;
#else
  return 0;
#endif
}

}  // namespace ropescope::ui
