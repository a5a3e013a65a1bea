#include "figures/gif_palette.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cstddef>

namespace ropescope::ui {

namespace {

int bitsFor(std::size_t colours) {
  int bits = 1;
  while ((std::size_t{1} << bits) < colours) ++bits;
  return bits;
}

}  // namespace

IndexedFrame indexColours(const QImage& image) {
  IndexedFrame out;
  const int w = image.width(), h = image.height();
  out.indices.resize(static_cast<std::size_t>(w) * h);
  // Exact palette when the frame has at most 256 colours.
  QHash<QRgb, int> exact;
  bool fits = true;
  for (int y = 0; y < h && fits; ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    for (int x = 0; x < w; ++x) {
      const QRgb c = line[x] | 0xff000000u;
      auto it = exact.constFind(c);
      if (it == exact.constEnd()) {
        if (exact.size() == 256) {
          fits = false;
          break;
        }
        it = exact.insert(c, static_cast<int>(out.palette.size()));
        out.palette.push_back(c);
      }
      out.indices[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(*it);
    }
  }
  if (!fits) {
    // The 256 most frequent cells of a 32x32x32 histogram, each as the mean of its pixels, and
    // every cell mapped to its nearest palette colour.
    constexpr int kCells = 32 * 32 * 32;
    std::vector<std::uint32_t> count(kCells, 0);
    std::vector<std::array<std::uint64_t, 3>> sum(kCells, {0, 0, 0});
    auto cellOf = [](QRgb c) {
      return (qRed(c) >> 3) << 10 | (qGreen(c) >> 3) << 5 | qBlue(c) >> 3;
    };
    for (int y = 0; y < h; ++y) {
      const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
      for (int x = 0; x < w; ++x) {
        const int cell = cellOf(line[x]);
        ++count[cell];
        sum[cell][0] += qRed(line[x]);
        sum[cell][1] += qGreen(line[x]);
        sum[cell][2] += qBlue(line[x]);
      }
    }
    std::vector<int> used;
    for (int c = 0; c < kCells; ++c)
      if (count[c]) used.push_back(c);
    const std::size_t keep = std::min<std::size_t>(256, used.size());
    std::partial_sort(used.begin(), used.begin() + static_cast<std::ptrdiff_t>(keep), used.end(),
                      [&](int a, int b) { return count[a] > count[b]; });
    out.palette.clear();
    for (std::size_t i = 0; i < keep; ++i) {
      const int c = used[i];
      out.palette.push_back(qRgb(static_cast<int>(sum[c][0] / count[c]),
                                 static_cast<int>(sum[c][1] / count[c]),
                                 static_cast<int>(sum[c][2] / count[c])));
    }
    std::vector<int> nearest(kCells, -1);
    for (int y = 0; y < h; ++y) {
      const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
      for (int x = 0; x < w; ++x) {
        const int cell = cellOf(line[x]);
        if (nearest[cell] < 0) {
          const int r = ((cell >> 10) << 3) + 4, g = (((cell >> 5) & 31) << 3) + 4,
                    b = ((cell & 31) << 3) + 4;
          int best = 0;
          long bestD = -1;
          for (std::size_t i = 0; i < out.palette.size(); ++i) {
            const long dr = r - qRed(out.palette[i]), dg = g - qGreen(out.palette[i]),
                       db = b - qBlue(out.palette[i]);
            const long d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if (bestD < 0 || d < bestD) {
              bestD = d;
              best = static_cast<int>(i);
            }
          }
          nearest[cell] = best;
        }
        out.indices[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(nearest[cell]);
      }
    }
  }
  out.bits = bitsFor(std::max<std::size_t>(2, out.palette.size()));
  out.palette.resize(std::size_t{1} << out.bits, qRgb(0, 0, 0));
  return out;
}

}  // namespace ropescope::ui
