// JPEG: the first frame header's size, the EXIF orientation, the markers walked to EOI.
#include "io/image/probe_reader.h"

#include <vector>

#include "io/image/tiff_ifd.h"

namespace ropescope::probe {

namespace {

bool isStartOfFrame(u8 m) {
  return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

}  // namespace

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

}  // namespace ropescope::probe
