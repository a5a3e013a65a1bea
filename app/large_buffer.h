// Memory for a large output buffer (attention's chunk of rows, pooled blocks) taken straight
// from the kernel in 2 MiB huge pages where it offers them (madvise): one page fault per 2 MiB
// instead of per 4 KiB (fresh pages are slow to fault in on this kind of virtual machine). Not
// zero-filled by the program (the kernel hands out zeroed pages); every value is written by
// the caller.
#pragma once

#include <cstddef>

namespace ropescope::cli {

class LargeBuffer {
 public:
  LargeBuffer() = default;
  explicit LargeBuffer(std::size_t floats);  // throws std::bad_alloc
  ~LargeBuffer();
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;

  float* data() const { return data_; }
  std::size_t size() const { return size_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0, bytes_ = 0;
};

}  // namespace ropescope::cli
