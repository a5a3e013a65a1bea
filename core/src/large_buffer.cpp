#include "ropescope/large_buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace ropescope {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;
}  // namespace

HugePageMapping::HugePageMapping(std::size_t bytes) {
  if (bytes == 0) return;
  bytes_ = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  // An anonymous mapping is only 4 KiB aligned: map one huge page more and trim both ends.
  const std::size_t mapped = bytes_ + kHugePage;
  void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  char* base = static_cast<char*>(p);
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(base) + kHugePage - 1) /
                                          kHugePage * kHugePage);
  if (aligned > base) ::munmap(base, std::size_t(aligned - base));
  char* end = aligned + bytes_;
  if (base + mapped > end) ::munmap(end, std::size_t(base + mapped - end));
#ifdef MADV_HUGEPAGE
  (void)::madvise(aligned, bytes_, MADV_HUGEPAGE);  // a hint: without it, 4 KiB pages
#endif
  data_ = aligned;
}

void adviseHugePages(void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
  const std::uintptr_t last = (begin + bytes) / kHugePage * kHugePage;
  if (last > first) (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
  // The whole pages at either end (malloc's storage need not start on a huge page) are mapped
  // in one call rather than one fault each; kernels before 5.14 refuse it, and they fault.
  const std::uintptr_t pageBegin = (begin + kPage - 1) / kPage * kPage;
  const std::uintptr_t pageEnd = (begin + bytes) / kPage * kPage;
  if (pageEnd > pageBegin)
    (void)::madvise(reinterpret_cast<void*>(pageBegin), pageEnd - pageBegin, MADV_POPULATE_WRITE);
#endif
#if !defined(MADV_HUGEPAGE) && !defined(MADV_POPULATE_WRITE)
  (void)data;
  (void)bytes;
#endif
}

HugePageMapping::~HugePageMapping() {
  if (data_) ::munmap(data_, bytes_);
}

HugePageMapping::HugePageMapping(HugePageMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

HugePageMapping& HugePageMapping::operator=(HugePageMapping&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(data_, bytes_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

}  // namespace ropescope
