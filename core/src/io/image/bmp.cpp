// BMP: the DIB header's size, and the pixel rows checked against the file size.
#include "io/image/probe_reader.h"

namespace ropescope::probe {

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

}  // namespace ropescope::probe
