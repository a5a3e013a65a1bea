// Bounded reading for the picture probes: random access (File) and a sequential buffer (Stream)
// over a file or bytes in memory, big/little-endian fields, and the size check every format runs
// before it reads past its header. Every read is bounded by kBufferBytes and checked against the
// file size, so a hostile header can make the probe read the file but never allocate by its
// numbers.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "ropescope/image_probe.h"

namespace ropescope::probe {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr std::size_t kBufferBytes = 64 * 1024;
constexpr int kMaxChunks = 1000000;  // PNG chunks / JPEG markers walked before giving up

// Throws InputError("PATH: PROBLEM") with the field id "image".
[[noreturn]] void fail(const std::string& path, const std::string& problem);

inline std::uint32_t be16(const u8* p) {
  return static_cast<std::uint32_t>(p[0]) << 8 | p[1];
}
inline std::uint32_t be32(const u8* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}
inline std::uint32_t le16(const u8* p) {
  return static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}
inline std::uint32_t le24(const u8* p) {
  return static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}
inline std::uint32_t le32(const u8* p) {
  return static_cast<std::uint32_t>(p[3]) << 24 | static_cast<std::uint32_t>(p[2]) << 16 |
         static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}

// Random access with small reads; knows the file size so callers can check a length before
// trusting it.
class File {
 public:
  File(const std::string& path, FILE* f, u64 size) : path_(path), f_(f), size_(size) {}
  // Bytes already in memory (probeImageBytes); never owned.
  File(const std::string& path, const u8* bytes, u64 size)
      : path_(path), bytes_(bytes), size_(size) {}
  ~File() {
    if (f_) std::fclose(f_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  u64 size() const { return size_; }
  const std::string& path() const { return path_; }

  // Exactly n bytes at offset (n <= kBufferBytes), or false when the file ends first.
  bool readAt(u64 offset, u8* out, std::size_t n) {
    if (n > kBufferBytes || offset > size_ || n > size_ - offset) return false;
    if (bytes_) {
      if (n > 0) std::memcpy(out, bytes_ + offset, n);
      return true;
    }
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) return false;
    return std::fread(out, 1, n, f_) == n;
  }

  // Like readAt, but a short file is reported as truncated inside `what`.
  void need(u64 offset, u8* out, std::size_t n, const char* what) {
    if (!readAt(offset, out, n))
      fail(path_, std::string("truncated: the file ends inside the ") + what + " (at byte " +
                      std::to_string(std::min<u64>(size_, offset + n)) + " of " +
                      std::to_string(size_) + ")");
  }

 private:
  std::string path_;
  FILE* f_ = nullptr;
  const u8* bytes_ = nullptr;
  u64 size_;
};

// Sequential reading through one fixed buffer, for walking block structures byte by byte.
class Stream {
 public:
  Stream(File& file, u64 start, const char* what) : file_(file), pos_(start), what_(what) {}

  u64 pos() const { return pos_ - (len_ - at_); }
  bool atEnd() {
    if (at_ < len_) return false;
    return !fill();
  }
  u8 byte() {
    if (at_ == len_ && !fill()) truncated();
    return buf_[at_++];
  }
  void skip(u64 n) {
    const u64 inBuffer = len_ - at_;
    if (n <= inBuffer) {
      at_ += static_cast<std::size_t>(n);
      return;
    }
    n -= inBuffer;
    at_ = len_ = 0;
    if (n > file_.size() - std::min(file_.size(), pos_)) truncated();
    pos_ += n;
  }
  [[noreturn]] void truncated() {
    fail(file_.path(), std::string("truncated: the file ends inside the ") + what_ + " (" +
                           std::to_string(file_.size()) + " bytes)");
  }

 private:
  bool fill() {
    if (pos_ >= file_.size()) return false;
    const std::size_t n =
        static_cast<std::size_t>(std::min<u64>(kBufferBytes, file_.size() - pos_));
    if (!file_.readAt(pos_, buf_.data(), n))
      fail(file_.path(), "read error at byte " + std::to_string(pos_));
    pos_ += n;
    at_ = 0;
    len_ = n;
    return true;
  }

  File& file_;
  u64 pos_;
  const char* what_;
  std::array<u8, kBufferBytes> buf_{};
  std::size_t at_ = 0, len_ = 0;
};

// Size checks shared by every format, run before anything past the header is read.
void checkSize(const std::string& path, const char* format, long long w, long long h);

// The formats, each in its own file; f is positioned nowhere (reads are at absolute offsets).
ImageInfo probePng(File& f);
ImageInfo probeJpeg(File& f);
ImageInfo probeBmp(File& f);
ImageInfo probeWebp(File& f);
ImageInfo probeGif(File& f);
ImageInfo probeTiff(File& f);

}  // namespace ropescope::probe
