#include "platform/memory_release.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ropescope::ui {

bool returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
  return true;
#else
  return false;
#endif
}

MemoryRelease::MemoryRelease(QObject* parent) : QObject(parent) {
  timer_.setSingleShot(true);
  // After the compare views' deferred rebuild and the charts' debounced refresh.
  timer_.setInterval(1000);
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (returnFreedMemory()) ++releases_;
  });
}

void MemoryRelease::sceneShown(std::size_t tokens) {
  if (tokens >= largest_) {
    largest_ = tokens;
    return;
  }
  if (largest_ >= kLargeTokens && tokens * 4 < largest_) {
    largest_ = tokens;
    timer_.start();
  }
}

}  // namespace ropescope::ui
