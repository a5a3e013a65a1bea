// A GIF89a writer of our own (Qt reads GIFs but cannot write them): one local palette of up to
// 256 colours per frame (exact when the frame has that few colours, else the most popular
// colours of a 5-bit-per-channel histogram), LZW-compressed, with the NETSCAPE2.0 loop extension
// and a frame delay. Streams frame by frame, so long animations do not sit in memory, into core's
// one output path (ropescope/atomic_file.h): the GIF appears whole at close() or not at all.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

#include "ropescope/atomic_file.h"

namespace ropescope::ui {

class GifWriter {
 public:
  GifWriter() = default;
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // delay: hundredths of a second per frame (1..65535); loops: 0 = forever.
  bool open(const QString& path, QSize size, int delayCentiseconds, int loops = 0);
  // Frames of another size are scaled to the size given to open().
  bool addFrame(const QImage& frame);
  // Writes the trailer; the file is there (complete) only after close() returned true. A
  // writer destroyed before that leaves what was at the path as it was.
  bool close();
  QString errorString() const { return error_; }
  int frameCount() const { return frames_; }

 private:
  bool put(const QByteArray& bytes);

  std::unique_ptr<OutputFile> file_;
  QSize size_;
  int delay_ = 10;
  int frames_ = 0;
  QString error_;
};

// The LZW code stream of GIF for indices < 2^minCodeSize, packed into bytes (LSB first), without
// the sub-block framing. Exposed for tests.
QByteArray gifLzw(const std::vector<std::uint8_t>& indices, int minCodeSize);

}  // namespace ropescope::ui
