// WebP: VP8, VP8L or VP8X size; animated files count their ANMF frames and durations.
#include "io/image/probe_reader.h"

namespace ropescope::probe {

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

}  // namespace ropescope::probe
