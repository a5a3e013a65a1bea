// Memory for a large output (attention's chunks of rows, a long report's text) taken straight
// from the kernel in 2 MiB huge pages where it offers them (madvise): one page fault per 2 MiB
// instead of per 4 KiB (fresh pages are slow to fault in on a virtual machine: about 3 us each
// on the 2-core development machine). Not zero-filled by the program: the kernel hands out
// zeroed pages, so every value starts at zero. For large buffers only: each one maps at least a
// whole huge page.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

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

// Asks for huge pages under the whole 2 MiB pages inside [data, data + bytes): for memory not
// yet touched (a large vector's fresh storage), so its first writes fault once per 2 MiB. A
// hint: where the kernel offers none, nothing changes.
void adviseHugePages(void* data, std::size_t bytes);

// v.resize(n) with its new storage advised first (adviseHugePages): the q/k of a long layout
// are tens of MiB of zero-filled floats.
template <typename T>
void resizeOnHugePages(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) {
    std::vector<T> fresh;
    fresh.reserve(n);
    adviseHugePages(fresh.data(), n * sizeof(T));
    fresh.assign(v.begin(), v.end());
    v.swap(fresh);
  }
  v.resize(n);
}

}  // namespace ropescope
