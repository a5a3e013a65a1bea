#include "figures/gif_writer.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <exception>

namespace ropescope::ui {

namespace {

constexpr int kMaxCode = 4095;  // 12-bit codes

void putU16(QByteArray& b, int v) {
  b.append(static_cast<char>(v & 0xff));
  b.append(static_cast<char>((v >> 8) & 0xff));
}

// Writes variable-width codes least significant bit first.
class BitPacker {
 public:
  explicit BitPacker(QByteArray& out) : out_(out) {}
  void put(int code, int width) {
    acc_ |= static_cast<std::uint32_t>(code) << bits_;
    bits_ += width;
    while (bits_ >= 8) {
      out_.append(static_cast<char>(acc_ & 0xff));
      acc_ >>= 8;
      bits_ -= 8;
    }
  }
  void flush() {
    if (bits_ > 0) out_.append(static_cast<char>(acc_ & 0xff));
    acc_ = 0;
    bits_ = 0;
  }

 private:
  QByteArray& out_;
  std::uint32_t acc_ = 0;
  int bits_ = 0;
};

// Open-addressing table of (prefix code, next index) -> code, cleared with the dictionary.
class CodeTable {
 public:
  CodeTable() : keys_(kSize), codes_(kSize) { clear(); }
  void clear() { std::fill(keys_.begin(), keys_.end(), -1); }
  int find(int prefix, int byte) const {
    const int key = (prefix << 8) | byte;
    for (int h = hash(key);; h = (h + 1) & (kSize - 1)) {
      if (keys_[h] == -1) return -1;
      if (keys_[h] == key) return codes_[h];
    }
  }
  void insert(int prefix, int byte, int code) {
    const int key = (prefix << 8) | byte;
    int h = hash(key);
    while (keys_[h] != -1) h = (h + 1) & (kSize - 1);
    keys_[h] = key;
    codes_[h] = static_cast<std::int16_t>(code);
  }

 private:
  static constexpr int kSize = 16384;  // > 2 x 4096 entries: short probe chains
  static int hash(int key) { return static_cast<int>((key * 2654435761u) >> 18) & (kSize - 1); }
  std::vector<int> keys_;
  std::vector<std::int16_t> codes_;
};

// A frame as palette indices, with its palette (entries = 2^bits).
struct Indexed {
  std::vector<std::uint8_t> indices;
  std::vector<QRgb> palette;
  int bits = 1;
};

int bitsFor(std::size_t colours) {
  int bits = 1;
  while ((std::size_t{1} << bits) < colours) ++bits;
  return bits;
}

Indexed quantize(const QImage& image) {
  Indexed out;
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

}  // namespace

QByteArray gifLzw(const std::vector<std::uint8_t>& indices, int minCodeSize) {
  QByteArray out;
  BitPacker bits(out);
  const int clear = 1 << minCodeSize, end = clear + 1;
  int width = minCodeSize + 1;
  int next = end + 1;
  CodeTable table;
  bits.put(clear, width);
  if (indices.empty()) {
    bits.put(end, width);
    bits.flush();
    return out;
  }
  int prefix = indices[0];
  for (std::size_t i = 1; i < indices.size(); ++i) {
    const int byte = indices[i];
    const int code = table.find(prefix, byte);
    if (code >= 0) {
      prefix = code;
      continue;
    }
    bits.put(prefix, width);
    // The decoder adds this entry one code later; it widens when its next code reaches 2^width,
    // so the encoder widens once its own next code passes 2^width.
    table.insert(prefix, byte, next++);
    if (next > (1 << width) && width < 12) ++width;
    if (next >= kMaxCode) {
      bits.put(clear, width);
      table.clear();
      width = minCodeSize + 1;
      next = end + 1;
    }
    prefix = byte;
  }
  bits.put(prefix, width);
  // The decoder adds one more entry on reading the last code before it reads the end code.
  if (next + 1 > (1 << width) && width < 12) ++width;
  bits.put(end, width);
  bits.flush();
  return out;
}

GifWriter::~GifWriter() = default;  // an unfinished file is abandoned (OutputFile)

bool GifWriter::put(const QByteArray& bytes) {
  try {
    file_->write(bytes.constData(), static_cast<std::size_t>(bytes.size()));
  } catch (const std::exception& e) {
    error_ = QString::fromUtf8(e.what());
    return false;  // file_ stays: a later close() fails too
  }
  return true;
}

bool GifWriter::open(const QString& path, QSize size, int delayCentiseconds, int loops) {
  if (size.width() < 1 || size.height() < 1 || size.width() > 65535 || size.height() > 65535) {
    error_ = QStringLiteral("GIF size must be 1..65535 pixels per side");
    return false;
  }
  size_ = size;
  delay_ = std::clamp(delayCentiseconds, 1, 65535);
  frames_ = 0;
  file_.reset();
  try {
    file_ = std::make_unique<OutputFile>(path.toStdString());
  } catch (const std::exception& e) {
    error_ = QString::fromUtf8(e.what());
    return false;
  }
  QByteArray head("GIF89a");
  putU16(head, size.width());
  putU16(head, size.height());
  head.append('\0');  // no global colour table: every frame brings its own
  head.append('\0');  // background colour index
  head.append('\0');  // pixel aspect ratio: square
  // NETSCAPE2.0 application extension: loop count.
  head.append("\x21\xff\x0b", 3);
  head.append("NETSCAPE2.0");
  head.append("\x03\x01", 2);
  putU16(head, std::clamp(loops, 0, 65535));
  head.append('\0');
  return put(head);
}

bool GifWriter::addFrame(const QImage& frame) {
  if (!file_) {
    error_ = QStringLiteral("GIF writer is not open");
    return false;
  }
  QImage image = frame.size() == size_
                     ? frame
                     : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  image = image.convertToFormat(QImage::Format_RGB32);
  const Indexed ix = quantize(image);
  QByteArray b;
  // Graphic control extension: disposal "leave in place", the delay, no transparency.
  b.append("\x21\xf9\x04", 3);
  b.append(static_cast<char>(1 << 2));
  putU16(b, delay_);
  b.append('\0');
  b.append('\0');
  // Image descriptor with a local colour table of 2^bits entries.
  b.append('\x2c');
  putU16(b, 0);
  putU16(b, 0);
  putU16(b, size_.width());
  putU16(b, size_.height());
  b.append(static_cast<char>(0x80 | (ix.bits - 1)));
  for (QRgb c : ix.palette) {
    b.append(static_cast<char>(qRed(c)));
    b.append(static_cast<char>(qGreen(c)));
    b.append(static_cast<char>(qBlue(c)));
  }
  const int minCode = std::max(2, ix.bits);
  b.append(static_cast<char>(minCode));
  const QByteArray data = gifLzw(ix.indices, minCode);
  for (qsizetype at = 0; at < data.size(); at += 255) {
    const qsizetype n = std::min<qsizetype>(255, data.size() - at);
    b.append(static_cast<char>(n));
    b.append(data.constData() + at, n);
  }
  b.append('\0');
  if (!put(b)) return false;
  ++frames_;
  return true;
}

bool GifWriter::close() {
  if (!file_) return frames_ > 0;
  if (!put(QByteArray(1, '\x3b'))) return false;
  try {
    file_->commit();
  } catch (const std::exception& e) {
    error_ = QString::fromUtf8(e.what());
    return false;  // file_ stays: a later close() fails too
  }
  file_.reset();
  return true;
}

}  // namespace ropescope::ui
