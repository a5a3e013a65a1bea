// Header-only probing of picture files. Every read is bounded (a fixed buffer, a length checked
// against the file size first), so a hostile header can make us read the file but never
// allocate by its numbers. The pixel limit is checked as soon as width and height are known.
#include "ropescope/image_probe.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "ropescope/errors.h"

namespace ropescope {

const char* imageFormatName(ImageFormat format) {
  switch (format) {
    case ImageFormat::Png:
      return "PNG";
    case ImageFormat::Jpeg:
      return "JPEG";
    case ImageFormat::Bmp:
      return "BMP";
    case ImageFormat::WebP:
      return "WebP";
    case ImageFormat::Gif:
      return "GIF";
    case ImageFormat::Tiff:
      return "TIFF";
  }
  return "?";
}

namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr std::size_t kBufferBytes = 64 * 1024;
constexpr int kMaxChunks = 1000000;  // PNG chunks / JPEG markers walked before giving up

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw InputError(path + ": " + problem, "image");
}

std::uint32_t be16(const u8* p) {
  return static_cast<std::uint32_t>(p[0]) << 8 | p[1];
}
std::uint32_t be32(const u8* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}
std::uint32_t le16(const u8* p) {
  return static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}
std::uint32_t le24(const u8* p) {
  return static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[1]) << 8 | p[0];
}
std::uint32_t le32(const u8* p) {
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
void checkSize(const std::string& path, const char* format, long long w, long long h) {
  if (w <= 0 || h <= 0)
    fail(path, std::string("invalid ") + format + " header: size " + std::to_string(w) + "x" +
                   std::to_string(h));
  // Divided, not multiplied: TIFF and PNG sides are 32-bit, and 2^32 x 2^32 overflows long
  // long. The product printed is exact in u64 for such sides.
  if (w > kMaxImagePixels / h)
    fail(path, "picture too large: the " + std::string(format) + " header says " +
                   std::to_string(w) + "x" + std::to_string(h) + " = " +
                   std::to_string(static_cast<u64>(w) * static_cast<u64>(h)) +
                   " pixels, above the limit of " + std::to_string(kMaxImagePixels) +
                   " (8192x8192); nothing was decoded");
}

// ---- TIFF IFD (also used for the EXIF block of JPEG files) ------------------------------------

struct TiffTags {
  long long width = -1, height = -1;
  int orientation = 1;
  long long stripOffset = -1, stripBytes = -1;  // last strip, when known
};

// Reads IFD0 of a TIFF structure through `read(offset, out, n)`; offsets are relative to the
// TIFF header. `total` is the structure's size.
template <typename Read>
TiffTags readIfd0(const std::string& path, Read read, u64 total, const char* what) {
  u8 head[8];
  if (!read(0, head, 8))
    fail(path, std::string("truncated: the file ends inside the ") + what + " header");
  const bool little = head[0] == 'I';
  auto u16 = [&](const u8* p) { return little ? le16(p) : be16(p); };
  auto u32 = [&](const u8* p) { return little ? le32(p) : be32(p); };
  const u64 ifd = u32(head + 4);
  if (ifd < 8 || ifd + 2 > total)
    fail(path, std::string("truncated or corrupt ") + what + ": first directory at byte " +
                   std::to_string(ifd) + " lies outside the " + std::to_string(total) + " bytes");
  u8 countBytes[2];
  if (!read(ifd, countBytes, 2)) fail(path, std::string("truncated ") + what + " directory");
  const std::uint32_t count = u16(countBytes);
  if (count == 0) fail(path, std::string("invalid ") + what + ": empty first directory");
  TiffTags tags;
  long long stripOffsetsCount = 0, stripBytesCount = 0;
  std::uint32_t stripOffsetsType = 0, stripBytesType = 0;
  u64 stripOffsetsAt = 0, stripBytesAt = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    u8 e[12];
    if (!read(ifd + 2 + 12ull * i, e, 12))
      fail(path, std::string("truncated: the file ends inside the ") + what + " directory");
    const std::uint32_t tag = u16(e), type = u16(e + 2), n = u32(e + 4);
    // SHORT values sit in the first two bytes of the value field, LONG in all four.
    const std::uint32_t value = type == 3 ? u16(e + 8) : u32(e + 8);
    switch (tag) {
      case 256:
        tags.width = value;
        break;
      case 257:
        tags.height = value;
        break;
      case 274:
        tags.orientation = static_cast<int>(value);
        break;
      case 273:
      case 279: {
        // With one strip the value is inline; with more, the field points at an array whose
        // last element describes the last strip.
        const std::uint32_t size = type == 3 ? 2 : 4;
        const u64 at = n * static_cast<u64>(size) <= 4 ? 0 : u32(e + 8);
        if (tag == 273) {
          stripOffsetsCount = n, stripOffsetsType = type, stripOffsetsAt = at;
          if (n == 1) tags.stripOffset = value;
        } else {
          stripBytesCount = n, stripBytesType = type, stripBytesAt = at;
          if (n == 1) tags.stripBytes = value;
        }
        break;
      }
      default:
        break;
    }
  }
  auto lastOf = [&](long long n, std::uint32_t type, u64 at) -> long long {
    if (n <= 1 || at == 0 || (type != 3 && type != 4)) return -1;
    const std::uint32_t size = type == 3 ? 2 : 4;
    u8 v[4];
    if (!read(at + static_cast<u64>(n - 1) * size, v, size))
      fail(path, std::string("truncated: the file ends inside the ") + what + " strip table");
    return size == 2 ? u16(v) : u32(v);
  };
  if (stripOffsetsCount > 1 && stripOffsetsCount == stripBytesCount) {
    tags.stripOffset = lastOf(stripOffsetsCount, stripOffsetsType, stripOffsetsAt);
    tags.stripBytes = lastOf(stripBytesCount, stripBytesType, stripBytesAt);
  }
  return tags;
}

// EXIF orientation from an APP1 payload ("Exif\0\0" + TIFF structure); 1 when absent or odd.
int exifOrientation(const std::string& path, const std::vector<u8>& app1) {
  if (app1.size() < 14 || std::memcmp(app1.data(), "Exif\0\0", 6) != 0) return 1;
  const u8* tiff = app1.data() + 6;
  const u64 total = app1.size() - 6;
  if (!((tiff[0] == 'I' && tiff[1] == 'I') || (tiff[0] == 'M' && tiff[1] == 'M'))) return 1;
  auto read = [&](u64 off, u8* out, std::size_t n) {
    if (off > total || n > total - off) return false;
    std::memcpy(out, tiff + off, n);
    return true;
  };
  try {
    const int o = readIfd0(path, read, total, "EXIF block").orientation;
    return o >= 1 && o <= 8 ? o : 1;
  } catch (const InputError&) {
    return 1;  // a broken EXIF block does not make the picture unreadable
  }
}

// ---- the formats ------------------------------------------------------------------------------

ImageInfo probePng(File& f) {
  u8 h[33];
  f.need(0, h, 33, "PNG header");
  if (be32(h + 8) != 13 || std::memcmp(h + 12, "IHDR", 4) != 0)
    fail(f.path(), "invalid PNG header: the first chunk is not IHDR");
  ImageInfo info;
  info.format = ImageFormat::Png;
  const long long w = be32(h + 16), hh = be32(h + 20);
  if (w > 0x7fffffff || hh > 0x7fffffff) fail(f.path(), "invalid PNG header: size above 2^31-1");
  checkSize(f.path(), "PNG", w, hh);
  info.storedWidth = info.width = static_cast<int>(w);
  info.storedHeight = info.height = static_cast<int>(hh);
  // Walk the chunk lengths to IEND: a cut-off file fails here instead of in the decoder.
  u64 pos = 33;
  bool sawData = false;
  for (int i = 0; i < kMaxChunks; ++i) {
    u8 c[8];
    f.need(pos, c, 8, "PNG chunk list (no IEND chunk)");
    const u64 len = be32(c);
    if (len > 0x7fffffff) fail(f.path(), "corrupt PNG: chunk length above 2^31-1");
    if (std::memcmp(c + 4, "IDAT", 4) == 0) sawData = true;
    if (std::memcmp(c + 4, "IEND", 4) == 0) {
      if (!sawData) fail(f.path(), "corrupt PNG: no image data (IDAT) before IEND");
      if (pos + 12 > f.size()) fail(f.path(), "truncated: the file ends inside the PNG end chunk");
      return info;
    }
    pos += 12 + len;
    if (pos > f.size())
      fail(f.path(), "truncated: a PNG chunk runs past the end of the file (" +
                         std::to_string(f.size()) + " bytes)");
  }
  fail(f.path(), "corrupt PNG: more than " + std::to_string(kMaxChunks) + " chunks");
}

bool isStartOfFrame(u8 m) {
  return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

ImageInfo probeJpeg(File& f) {
  ImageInfo info;
  info.format = ImageFormat::Jpeg;
  Stream s(f, 2, "JPEG data");
  bool haveFrame = false;
  for (int i = 0; i < kMaxChunks; ++i) {
    const u64 at = s.pos();
    if (s.atEnd())
      fail(f.path(), haveFrame ? "truncated: the JPEG data ends without an end-of-image marker"
                               : "truncated: the file ends before the JPEG frame header");
    if (s.byte() != 0xFF)
      fail(f.path(), "corrupt JPEG: expected a marker at byte " + std::to_string(at));
    u8 m = s.byte();
    while (m == 0xFF) m = s.byte();  // fill bytes
    if (m == 0xD9) {
      if (!haveFrame) fail(f.path(), "corrupt JPEG: end of image before any frame header");
      return info;
    }
    if ((m >= 0xD0 && m <= 0xD7) || m == 0x01) continue;  // markers without a length
    if (m == 0xD8 || m == 0x00)
      fail(f.path(), "corrupt JPEG: unexpected marker at byte " + std::to_string(at));
    const std::uint32_t len = static_cast<std::uint32_t>(s.byte()) << 8 | s.byte();
    if (len < 2)
      fail(f.path(), "corrupt JPEG: segment length below 2 at byte " + std::to_string(at));
    const std::uint32_t body = len - 2;
    if (isStartOfFrame(m)) {
      if (body < 6) fail(f.path(), "corrupt JPEG: frame header too short");
      u8 sof[6];
      for (u8& b : sof) b = s.byte();
      s.skip(body - 6);
      if (m == 0xC3 || m == 0xC7 || m == 0xCB || m == 0xCF)
        fail(f.path(), "unsupported format: lossless JPEG (frame type 0xFF" +
                           std::string(1, "0123456789ABCDEF"[m >> 4]) +
                           std::string(1, "0123456789ABCDEF"[m & 15]) + ")");
      const long long hh = be16(sof + 1), w = be16(sof + 3);
      if (hh == 0) fail(f.path(), "unsupported JPEG: the height is given later in a DNL marker");
      checkSize(f.path(), "JPEG", w, hh);
      if (!haveFrame) {
        info.storedWidth = static_cast<int>(w);
        info.storedHeight = static_cast<int>(hh);
      }
      haveFrame = true;
    } else if (m == 0xE1 && info.orientation == 1 && body >= 14) {
      std::vector<u8> app1(body);  // body < 65536: bounded by the 16-bit length
      for (u8& b : app1) b = s.byte();
      info.orientation = exifOrientation(f.path(), app1);
    } else if (m == 0xDA) {
      if (!haveFrame) fail(f.path(), "corrupt JPEG: scan data before the frame header");
      s.skip(body);
      // Entropy-coded data: runs until a marker other than a stuffed 0xFF00 or a restart.
      while (true) {
        if (s.byte() != 0xFF) continue;
        u8 n = s.byte();
        while (n == 0xFF) n = s.byte();
        if (n == 0x00 || (n >= 0xD0 && n <= 0xD7)) continue;
        if (n == 0xD9) return info;
        // Another marker (progressive JPEG: tables and the next scan). Hand it back to the
        // segment loop by re-reading its length here.
        const std::uint32_t l2 = static_cast<std::uint32_t>(s.byte()) << 8 | s.byte();
        if (l2 < 2) fail(f.path(), "corrupt JPEG: segment length below 2");
        if (n == 0xDA) {
          s.skip(l2 - 2);
          continue;
        }
        if (isStartOfFrame(n)) fail(f.path(), "unsupported JPEG: more than one frame");
        s.skip(l2 - 2);
        break;
      }
    } else {
      s.skip(body);  // APPn, tables, comments: skipped by their length
    }
  }
  fail(f.path(), "corrupt JPEG: more than " + std::to_string(kMaxChunks) + " markers");
}

ImageInfo probeBmp(File& f) {
  u8 h[30];
  f.need(0, h, 18, "BMP header");
  const std::uint32_t dib = le32(h + 14);
  ImageInfo info;
  info.format = ImageFormat::Bmp;
  long long w = 0, hh = 0;
  std::uint32_t bpp = 0, compression = 0;
  if (dib == 12) {
    f.need(0, h, 26, "BMP header");
    w = le16(h + 18);
    hh = le16(h + 20);
    bpp = le16(h + 24);
  } else if (dib >= 40 && dib <= 124) {
    f.need(0, h, 30, "BMP header");
    u8 more[4];
    f.need(30, more, 4, "BMP header");
    w = static_cast<std::int32_t>(le32(h + 18));
    hh = static_cast<std::int32_t>(le32(h + 22));
    bpp = le16(h + 28);
    compression = le32(more);
    if (hh < 0) hh = -hh;  // negative height: rows stored top-down
  } else {
    fail(f.path(), "unsupported BMP header version (" + std::to_string(dib) + "-byte header)");
  }
  checkSize(f.path(), "BMP", w, hh);
  info.storedWidth = info.width = static_cast<int>(w);
  info.storedHeight = info.height = static_cast<int>(hh);
  const u64 dataStart = le32(h + 10);
  if (dataStart >= f.size())
    fail(f.path(), "truncated: the BMP pixel data would start at byte " +
                       std::to_string(dataStart) + " of " + std::to_string(f.size()));
  if ((compression == 0 || compression == 3) && bpp >= 1 && bpp <= 32) {
    const u64 stride = ((static_cast<u64>(w) * bpp + 31) / 32) * 4;
    const u64 need = dataStart + stride * static_cast<u64>(hh);
    if (need > f.size())
      fail(f.path(), "truncated: the BMP pixel rows need " + std::to_string(need) +
                         " bytes, the file has " + std::to_string(f.size()));
  }
  return info;
}

ImageInfo probeWebp(File& f) {
  u8 h[30];
  f.need(0, h, 30, "WebP header");
  if (static_cast<u64>(le32(h + 4)) + 8 > f.size())
    fail(f.path(), "truncated: the WebP container says " + std::to_string(le32(h + 4) + 8ull) +
                       " bytes, the file has " + std::to_string(f.size()));
  ImageInfo info;
  info.format = ImageFormat::WebP;
  long long w = 0, hh = 0;
  bool animated = false;
  if (std::memcmp(h + 12, "VP8 ", 4) == 0) {
    if (h[23] != 0x9D || h[24] != 0x01 || h[25] != 0x2A)
      fail(f.path(), "invalid WebP header: no VP8 key frame start code");
    w = le16(h + 26) & 0x3FFF;
    hh = le16(h + 28) & 0x3FFF;
  } else if (std::memcmp(h + 12, "VP8L", 4) == 0) {
    if (h[20] != 0x2F) fail(f.path(), "invalid WebP header: bad VP8L signature");
    const std::uint32_t bits = le32(h + 21);
    w = (bits & 0x3FFF) + 1;
    hh = ((bits >> 14) & 0x3FFF) + 1;
  } else if (std::memcmp(h + 12, "VP8X", 4) == 0) {
    animated = (h[20] & 0x02) != 0;
    w = static_cast<long long>(le24(h + 24)) + 1;
    hh = static_cast<long long>(le24(h + 27)) + 1;
  } else {
    fail(f.path(), "invalid WebP header: unknown first chunk \"" +
                       std::string(reinterpret_cast<const char*>(h + 12), 4) + "\"");
  }
  checkSize(f.path(), "WebP", w, hh);
  info.storedWidth = info.width = static_cast<int>(w);
  info.storedHeight = info.height = static_cast<int>(hh);
  if (animated) {
    // Count ANMF chunks and sum their durations (milliseconds, 24 bits at payload byte 12).
    const u64 end = std::min<u64>(f.size(), static_cast<u64>(le32(h + 4)) + 8);
    u64 pos = 12;
    int frames = 0;
    double ms = 0.0;
    for (int i = 0; i < kMaxChunks && pos + 8 <= end; ++i) {
      u8 c[8];
      f.need(pos, c, 8, "WebP chunk list");
      const u64 len = le32(c + 4);
      if (std::memcmp(c, "ANMF", 4) == 0) {
        u8 d[16];
        f.need(pos + 8, d, 16, "WebP animation frame");
        if (++frames > kMaxImageFrames)
          fail(f.path(), "more than " + std::to_string(kMaxImageFrames) + " frames");
        ms += le24(d + 12);
      }
      pos += 8 + len + (len & 1);
    }
    if (frames == 0) fail(f.path(), "corrupt WebP: animated but without frames");
    info.frames = frames;
    if (frames > 1 && ms > 0) info.fps = frames * 1000.0 / ms;
  }
  return info;
}

ImageInfo probeGif(File& f) {
  u8 h[13];
  f.need(0, h, 13, "GIF header");
  ImageInfo info;
  info.format = ImageFormat::Gif;
  // Frames are drawn on the logical screen, so its size is the picture's size.
  const long long w = le16(h + 6), hh = le16(h + 8);
  checkSize(f.path(), "GIF", w, hh);
  info.storedWidth = info.width = static_cast<int>(w);
  info.storedHeight = info.height = static_cast<int>(hh);
  Stream s(f, 13, "GIF data (no trailer)");
  if (h[10] & 0x80) s.skip(3ull << ((h[10] & 7) + 1));  // global colour table
  auto skipSubBlocks = [&] {
    for (u8 n = s.byte(); n != 0; n = s.byte()) s.skip(n);
  };
  int frames = 0;
  double centiseconds = 0.0;
  int delayed = 0;
  while (true) {
    const u8 block = s.byte();
    if (block == 0x3B) break;  // trailer
    if (block == 0x2C) {
      u8 d[9];
      for (u8& b : d) b = s.byte();
      if (d[8] & 0x80) s.skip(3ull << ((d[8] & 7) + 1));  // local colour table
      s.byte();                                           // LZW minimum code size
      skipSubBlocks();
      if (++frames > kMaxImageFrames)
        fail(f.path(), "more than " + std::to_string(kMaxImageFrames) + " frames");
    } else if (block == 0x21) {
      const u8 label = s.byte();
      if (label == 0xF9) {
        const u8 n = s.byte();
        if (n >= 4) {
          u8 g[4];
          for (u8& b : g) b = s.byte();
          s.skip(n - 4u);
          // Browsers show delays under 2/100 s as 1/10 s; so do we, for the fps estimate.
          const std::uint32_t delay = le16(g + 1);
          centiseconds += delay < 2 ? 10 : delay;
          ++delayed;
          skipSubBlocks();
        } else {
          s.skip(n);
          skipSubBlocks();
        }
      } else {
        skipSubBlocks();
      }
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", block);
      fail(f.path(), std::string("corrupt GIF: unknown block ") + hex + " at byte " +
                         std::to_string(s.pos() - 1));
    }
  }
  if (frames == 0) fail(f.path(), "corrupt GIF: no image in the file");
  info.frames = frames;
  if (frames > 1 && delayed > 0 && centiseconds > 0) info.fps = delayed * 100.0 / centiseconds;
  return info;
}

ImageInfo probeTiff(File& f) {
  auto read = [&](u64 off, u8* out, std::size_t n) { return f.readAt(off, out, n); };
  const TiffTags t = readIfd0(f.path(), read, f.size(), "TIFF");
  if (t.width < 0 || t.height < 0)
    fail(f.path(), "invalid TIFF: no ImageWidth/ImageLength in the first directory");
  checkSize(f.path(), "TIFF", t.width, t.height);
  if (t.stripOffset >= 0 && t.stripBytes >= 0 &&
      static_cast<u64>(t.stripOffset) + static_cast<u64>(t.stripBytes) > f.size())
    fail(f.path(), "truncated: the last TIFF strip ends at byte " +
                       std::to_string(t.stripOffset + t.stripBytes) + ", the file has " +
                       std::to_string(f.size()));
  ImageInfo info;
  info.format = ImageFormat::Tiff;
  info.storedWidth = info.width = static_cast<int>(t.width);
  info.storedHeight = info.height = static_cast<int>(t.height);
  info.orientation = t.orientation >= 1 && t.orientation <= 8 ? t.orientation : 1;
  return info;
}

// Names formats we recognise but do not read, so the message says what the file is.
std::string unsupportedKind(const u8* h, std::size_t n) {
  auto is = [&](std::size_t at, const char* sig) {
    const std::size_t len = std::strlen(sig);
    return n >= at + len && std::memcmp(h + at, sig, len) == 0;
  };
  if (is(0, "8BPS")) return "Photoshop PSD";
  if (is(4, "ftypavif") || is(4, "ftypavis")) return "AVIF";
  if (is(4, "ftypheic") || is(4, "ftypheix") || is(4, "ftypmif1") || is(4, "ftyphevc"))
    return "HEIF/HEIC";
  if (is(0, "%PDF")) return "PDF";
  if (is(0, "qoif")) return "QOI";
  if (is(0, "DDS ")) return "DirectDraw Surface";
  if (is(0, "#?RADIANCE") || is(0, "#?RGBE")) return "Radiance HDR";
  if (n >= 4 && h[0] == 0x76 && h[1] == 0x2F && h[2] == 0x31 && h[3] == 0x01) return "OpenEXR";
  if (n >= 2 && h[0] == 0xFF && h[1] == 0x0A) return "JPEG XL";
  if (is(4, "JXL ")) return "JPEG XL";
  if (is(4, "jP  ") || (n >= 4 && h[0] == 0xFF && h[1] == 0x4F && h[2] == 0xFF && h[3] == 0x51))
    return "JPEG 2000";
  if (n >= 4 && ((h[0] == 'I' && h[1] == 'I' && h[2] == 0x2B && h[3] == 0) ||
                 (h[0] == 'M' && h[1] == 'M' && h[2] == 0 && h[3] == 0x2B)))
    return "BigTIFF";
  if (n >= 4 && h[0] == 0 && h[1] == 0 && (h[2] == 1 || h[2] == 2) && h[3] == 0)
    return "Windows icon (ICO/CUR)";
  if (n >= 2 && h[0] == 'P' && h[1] >= '1' && h[1] <= '7') return "Netpbm (PNM/PAM)";
  if (is(0, "<svg") || is(0, "<?xml")) return "SVG/XML";
  if (is(0, "RIFF")) return "RIFF container that is not WebP (AVI/WAV?)";
  return {};
}

std::string lowerExtension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The format a file name's extension names, or nullptr for an extension we do not know.
const ImageFormat* extensionFormat(const std::string& path) {
  static const std::pair<const char*, ImageFormat> kNames[] = {
      {"png", ImageFormat::Png},  {"jpg", ImageFormat::Jpeg},  {"jpeg", ImageFormat::Jpeg},
      {"jpe", ImageFormat::Jpeg}, {"jfif", ImageFormat::Jpeg}, {"bmp", ImageFormat::Bmp},
      {"dib", ImageFormat::Bmp},  {"webp", ImageFormat::WebP}, {"gif", ImageFormat::Gif},
      {"tif", ImageFormat::Tiff}, {"tiff", ImageFormat::Tiff}};
  const std::string ext = lowerExtension(path);
  for (const auto& [name, format] : kNames)
    if (ext == name) return &format;
  return nullptr;
}

}  // namespace

namespace {
ImageInfo probeFile(File& f);
}  // namespace

ImageInfo probeImage(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, "file not found");
  if (S_ISDIR(st.st_mode)) fail(path, "is a folder, not a picture file");
  if (!S_ISREG(st.st_mode)) fail(path, "is not a regular file");
  FILE* raw = std::fopen(path.c_str(), "rb");
  if (!raw) fail(path, "cannot open (no permission?)");
  File f(path, raw, static_cast<u64>(st.st_size));
  return probeFile(f);
}

ImageInfo probeImageBytes(const void* data, std::size_t size, const std::string& name) {
  File f(name, static_cast<const u8*>(data), size);
  return probeFile(f);
}

namespace {

ImageInfo probeFile(File& f) {
  const std::string& path = f.path();
  if (f.size() == 0) fail(path, "the file is empty (0 bytes)");

  u8 h[16] = {};
  const std::size_t n = static_cast<std::size_t>(std::min<u64>(16, f.size()));
  if (!f.readAt(0, h, n)) fail(path, "read error");
  auto is = [&](const u8* sig, std::size_t len) {
    return n >= len && std::memcmp(h, sig, len) == 0;
  };
  static const u8 kPng[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  static const u8 kJpeg[] = {0xFF, 0xD8, 0xFF};
  static const u8 kTiffLe[] = {'I', 'I', 0x2A, 0};
  static const u8 kTiffBe[] = {'M', 'M', 0, 0x2A};

  ImageInfo info;
  if (is(kPng, 8)) {
    info = probePng(f);
  } else if (is(kJpeg, 3)) {
    info = probeJpeg(f);
  } else if (n >= 2 && h[0] == 'B' && h[1] == 'M') {
    info = probeBmp(f);
  } else if (n >= 12 && std::memcmp(h, "RIFF", 4) == 0 && std::memcmp(h + 8, "WEBP", 4) == 0) {
    info = probeWebp(f);
  } else if (n >= 6 && (std::memcmp(h, "GIF87a", 6) == 0 || std::memcmp(h, "GIF89a", 6) == 0)) {
    info = probeGif(f);
  } else if (is(kTiffLe, 4) || is(kTiffBe, 4)) {
    info = probeTiff(f);
  } else {
    // A prefix of a known signature in a tiny file is a truncated picture, not a stranger.
    const std::pair<const u8*, std::size_t> sigs[] = {
        {kPng, 8}, {kJpeg, 3}, {kTiffLe, 4}, {kTiffBe, 4}};
    for (const auto& [sig, len] : sigs)
      if (n < len && std::memcmp(h, sig, n) == 0)
        fail(path, "truncated: only " + std::to_string(n) + " bytes of a picture signature");
    if (n < 6 && (std::memcmp(h, "GIF89a", n) == 0 || std::memcmp(h, "GIF87a", n) == 0))
      fail(path, "truncated: only " + std::to_string(n) + " bytes of a GIF signature");
    if (n < 12 && std::memcmp(h, "RIFF", std::min<std::size_t>(n, 4)) == 0 &&
        (n <= 8 || std::memcmp(h + 8, "WEBP", n - 8) == 0))
      fail(path, "truncated: only " + std::to_string(n) + " bytes of a WebP header");
    const std::string kind = unsupportedKind(h, n);
    if (!kind.empty())
      fail(path, "unsupported format: " + kind + " (accepted: PNG, JPEG, BMP, WebP, GIF, TIFF)");
    fail(path, "not a picture: no PNG, JPEG, BMP, WebP, GIF or TIFF signature at the start");
  }
  if (info.orientation >= 5) {
    info.width = info.storedHeight;
    info.height = info.storedWidth;
  } else {
    info.width = info.storedWidth;
    info.height = info.storedHeight;
  }
  if (const ImageFormat* named = extensionFormat(path); named && *named != info.format)
    info.warning = path + ": the extension says " + imageFormatName(*named) +
                   " but the content is " + imageFormatName(info.format) + "; read as " +
                   imageFormatName(info.format);
  return info;
}

}  // namespace

}  // namespace ropescope
