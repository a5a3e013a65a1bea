// PNG: the IHDR size, then the chunk lengths walked to IEND.
#include "io/image/probe_reader.h"

namespace ropescope::probe {

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

}  // namespace ropescope::probe
