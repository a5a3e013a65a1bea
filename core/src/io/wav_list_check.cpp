// Walks the top-level chunks of a WAVE file (8-byte headers, skipped by their sizes) and the
// sub-chunks of each LIST / INFO chunk, as libsndfile's reader does (backing out of a LIST at a
// "data" tag included), without its 32-bit sums.
#include "wav_list_check.h"

#include <algorithm>
#include <cstring>

namespace ropescope {

namespace {

// Most chunks walked: a real file has a handful; a crafted one cannot make the walk long.
constexpr int kMaxChunks = 4096;

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

// What the walk of one LIST chunk found: a problem, or where libsndfile goes on reading
// top-level chunks (a "data" tag inside the LIST makes it back out to that tag).
struct ListWalk {
  std::string problem;
  std::uint64_t backOut = 0;  // 0: after the LIST chunk
};

// The sub-chunks of one LIST chunk's content [begin, begin + n): marker-only tags (INFO, adtl)
// take 4 bytes, a "data" tag ends the walk and libsndfile reads it as the next top-level chunk,
// four zero bytes end it at the LIST's end, an "exif" tag hands the rest to libsndfile's exif
// walk, and every other sub-chunk's size must fit in what remains.
ListWalk walkList(const ByteReader& read, std::uint64_t begin, std::uint64_t n) {
  std::uint64_t at = 0;
  for (int i = 0; i < kMaxChunks && at + 4 <= n; ++i) {
    unsigned char h[8];
    const std::size_t got = read(begin + at, h, at + 8 <= n ? 8 : 4);
    if (got < 4) return {};
    at += 4;
    if (!std::memcmp(h, "INFO", 4) || !std::memcmp(h, "adtl", 4)) continue;
    if (!std::memcmp(h, "data", 4)) return {{}, begin + at - 4};
    if (!std::memcmp(h, "\0\0\0\0", 4)) return {};
    if (!std::memcmp(h, "exif", 4) || got < 8) return {};
    const std::uint64_t size = word(h + 4, false);
    at += 4;
    if (size > n - at)
      return {"has a damaged LIST chunk: sub-chunk '" + tag(h) + "' claims " +
                  std::to_string(size) + " bytes where " + std::to_string(n - at) + " remain",
              0};
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
  for (int i = 0; i < kMaxChunks && pos + 8 <= fileSize; ++i) {
    unsigned char h[8];
    if (read(pos, h, 8) != 8) return {};
    const std::uint64_t size = word(h + 4, rifx);
    pos += 8;
    const std::uint64_t left = fileSize - pos;
    if (!std::memcmp(h, "LIST", 4) || !std::memcmp(h, "INFO", 4)) {
      // libsndfile treats a LIST of 8 bytes or less as a broken PEAK leftover and skips it.
      if (size > 8) {
        const ListWalk w = walkList(read, pos, std::min(size, left));
        if (!w.problem.empty()) return w.problem;
        if (w.backOut > 0) {
          pos = w.backOut;
          continue;
        }
      }
    } else if (!std::memcmp(h, "data", 4) && size == 0xFFFFFFFFu) {
      // The real size is in ds64: nothing after it is walked. A data chunk that gives its
      // size here is walked past like any other: libsndfile reads the chunks after it too.
      return {};
    }
    if (size >= left) return {};
    pos += size + (size & 1);
  }
  return {};
}

}  // namespace ropescope
