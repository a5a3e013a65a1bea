// Walks the top-level chunks of a WAVE file (8-byte headers, skipped by their sizes) and the
// sub-chunks of each LIST / INFO chunk, as libsndfile's reader does, without its 32-bit sums;
// the shapes that led libsndfile into loops (a data tag inside a LIST, a second data chunk) are
// refused rather than followed.
#include "wav_list_check.h"

#include <algorithm>
#include <cstring>

namespace ropescope {

namespace {

// Most chunks walked: a real file has a handful; a crafted one cannot make the walk long.
constexpr int kMaxWavListChunks = 4096;

std::uint32_t word(const unsigned char* p, bool bigEndian) {
  return bigEndian ? (std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                      std::uint32_t(p[2]) << 8 | std::uint32_t(p[3]))
                   : (std::uint32_t(p[3]) << 24 | std::uint32_t(p[2]) << 16 |
                      std::uint32_t(p[1]) << 8 | std::uint32_t(p[0]));
}

std::string tag(const unsigned char* p) {
  std::string t(reinterpret_cast<const char*>(p), 4);
  for (char& c : t)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return t;
}

// The problem of one LIST chunk's content [begin, begin + n), "" if none: marker-only tags
// (INFO, adtl) take 4 bytes, a "data" tag is refused, four zero bytes end the walk at the LIST's
// end, an "exif" tag hands the rest to libsndfile's exif walk, and every other sub-chunk's size
// must fit in what remains.
std::string walkList(const ByteReader& read, std::uint64_t begin, std::uint64_t n) {
  std::uint64_t at = 0;
  for (int i = 0; i < kMaxWavListChunks && at + 4 <= n; ++i) {
    unsigned char h[8];
    const std::size_t got = read(begin + at, h, at + 8 <= n ? 8 : 4);
    if (got < 4) return {};
    at += 4;
    if (!std::memcmp(h, "INFO", 4) || !std::memcmp(h, "adtl", 4)) continue;
    // A data tag inside a LIST makes libsndfile back out to it as a top-level chunk, the way
    // into its looping paths (fuzz regressions wav-list-*): a LIST holds no sound data.
    if (!std::memcmp(h, "data", 4)) return "has a damaged LIST chunk: a 'data' tag inside it";
    if (!std::memcmp(h, "\0\0\0\0", 4)) return {};
    if (!std::memcmp(h, "exif", 4) || got < 8) return {};
    const std::uint64_t size = word(h + 4, false);
    at += 4;
    if (size > n - at)
      return "has a damaged LIST chunk: sub-chunk '" + tag(h) + "' claims " + std::to_string(size) +
             " bytes where " + std::to_string(n - at) + " remain";
    at += size + (size & 1);
  }
  return {};
}

}  // namespace

std::string wavListProblem(const ByteReader& read, std::uint64_t fileSize) {
  unsigned char head[12];
  if (fileSize < 12 || read(0, head, 12) != 12) return {};
  const bool riff = !std::memcmp(head, "RIFF", 4) || !std::memcmp(head, "RF64", 4);
  const bool rifx = !std::memcmp(head, "RIFX", 4);
  if ((!riff && !rifx) || std::memcmp(head + 8, "WAVE", 4) != 0) return {};
  if (!std::memcmp(head, "RF64", 4)) {
    // EBU Tech 3306: an RF64 file's first chunk is ds64, which holds the 64-bit sizes. Without
    // it libsndfile's RF64 reader walks chunks by sizes this check cannot follow and hung on
    // crafted files (fuzz regressions rf64-list-hang*.wav): refused before it reads them.
    unsigned char first[4];
    if (fileSize < 16 || read(12, first, 4) != 4 || std::memcmp(first, "ds64", 4) != 0)
      return "is an RF64 file without its ds64 chunk (RF64 files start with it)";
  }
  std::uint64_t pos = 12;
  bool haveData = false;
  for (int i = 0; i < kMaxWavListChunks && pos + 8 <= fileSize; ++i) {
    unsigned char h[8];
    if (read(pos, h, 8) != 8) return {};
    const std::uint64_t size = word(h + 4, rifx);
    pos += 8;
    const std::uint64_t left = fileSize - pos;
    if (!std::memcmp(h, "LIST", 4) || !std::memcmp(h, "INFO", 4)) {
      // libsndfile treats a LIST of 8 bytes or less as a broken PEAK leftover and skips it.
      if (size > 8) {
        if (std::string p = walkList(read, pos, std::min(size, left)); !p.empty()) return p;
      }
    } else if (!std::memcmp(h, "data", 4)) {
      // One data chunk: libsndfile reads the chunks after it too, and a second one (a crafted
      // file's, fuzz regression wav-two-data-hang.wav) led it into a loop.
      if (haveData) return "has two data chunks (a WAVE file has one)";
      haveData = true;
      // The real size is in ds64: nothing after it is walked.
      if (size == 0xFFFFFFFFu) return {};
    }
    if (size >= left) return {};
    pos += size + (size & 1);
  }
  return {};
}

}  // namespace ropescope
