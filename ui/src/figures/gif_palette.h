// A frame's colours as GIF wants them: palette indices and one palette of 2^bits entries (at most
// 256). Exact when the frame has at most 256 colours; else the 256 most popular cells of a
// 5-bit-per-channel histogram, each the mean of its pixels, every pixel mapped to the nearest.
#pragma once

#include <QImage>
#include <QRgb>

#include <cstdint>
#include <vector>

namespace ropescope::ui {

struct IndexedFrame {
  std::vector<std::uint8_t> indices;  // row by row, width x height
  std::vector<QRgb> palette;          // 2^bits entries; unused ones black
  int bits = 1;                       // 1..8
};

// `image` must be Format_RGB32 (alpha is ignored).
IndexedFrame indexColours(const QImage& image);

}  // namespace ropescope::ui
