// Memory for a large output (attention's chunks of rows, a long report's text) taken straight
// from the kernel in 2 MiB huge pages where it offers them (madvise): one page fault per 2 MiB
// instead of per 4 KiB (fresh pages are slow to fault in on a virtual machine: about 3 us each
// on the 2-core development machine). Not zero-filled by the program: the kernel hands out
// zeroed pages, so every value starts at zero. For large buffers only: each one maps at least a
// whole huge page.
#pragma once

#include <cstddef>
#include <utility>

namespace ropescope {

// The untyped mapping, whole huge pages, aligned to one.
class HugePageMapping {
 public:
  HugePageMapping() = default;
  explicit HugePageMapping(std::size_t bytes);  // throws std::bad_alloc
  ~HugePageMapping();
  HugePageMapping(HugePageMapping&& other) noexcept;
  HugePageMapping& operator=(HugePageMapping&& other) noexcept;
  HugePageMapping(const HugePageMapping&) = delete;
  HugePageMapping& operator=(const HugePageMapping&) = delete;

  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// `count` values of a trivially copyable T.
template <typename T>
class LargeBuffer {
 public:
  LargeBuffer() = default;
  explicit LargeBuffer(std::size_t count) : map_(count * sizeof(T)), size_(count) {}
  // A moved-from buffer is empty: no data, size 0.
  LargeBuffer(LargeBuffer&& other) noexcept
      : map_(std::move(other.map_)), size_(std::exchange(other.size_, 0)) {}
  LargeBuffer& operator=(LargeBuffer&& other) noexcept {
    map_ = std::move(other.map_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  T* data() const { return static_cast<T*>(map_.data()); }
  std::size_t size() const { return size_; }
  explicit operator bool() const { return map_.data() != nullptr; }

 private:
  HugePageMapping map_;
  std::size_t size_ = 0;
};

}  // namespace ropescope
