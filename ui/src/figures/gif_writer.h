// Animated GIFs through giflib (Qt reads GIFs but cannot write them): one local palette of up to
// 256 colours per frame (figures/gif_palette.h), the NETSCAPE2.0 loop extension and a frame
// delay. Streams frame by frame, so long animations do not sit in memory, into core's one output
// path (ropescope/atomic_file.h): the GIF appears whole at close() or not at all.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>

#include "ropescope/atomic_file.h"

struct GifFileType;  // giflib's encoder state (gif_lib.h)

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
  static int output(GifFileType* gif, const unsigned char* bytes, int size);
  bool failed(int giflibError);
  void release();  // frees giflib's state without sending it anything more

  std::unique_ptr<OutputFile> file_;
  GifFileType* gif_ = nullptr;
  bool discard_ = false;  // set while giflib is freed: what it still writes goes nowhere
  bool broken_ = false;   // a call failed: close() fails too, the path keeps what it held
  bool done_ = false;     // close() committed the file
  QSize size_;
  int delay_ = 10;
  int frames_ = 0;
  QString error_;
};

}  // namespace ropescope::ui
