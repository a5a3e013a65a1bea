// GIF: the logical screen size; the blocks walked to the trailer, frames and delays counted.
#include "io/image/probe_reader.h"

namespace ropescope::probe {

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

}  // namespace ropescope::probe
