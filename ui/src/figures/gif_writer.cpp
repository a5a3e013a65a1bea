#include "figures/gif_writer.h"

#include <gif_lib.h>

#include <algorithm>
#include <exception>
#include <vector>

#include "figures/gif_palette.h"

namespace ropescope::ui {

GifWriter::~GifWriter() {
  release();  // an unfinished file is abandoned (OutputFile)
}

int GifWriter::output(GifFileType* gif, const unsigned char* bytes, int size) {
  auto* self = static_cast<GifWriter*>(gif->UserData);
  if (self->discard_) return size;
  try {
    self->file_->write(bytes, static_cast<std::size_t>(size));
  } catch (const std::exception& e) {
    self->error_ = QString::fromUtf8(e.what());
    return 0;  // giflib reports E_GIF_ERR_WRITE_FAILED; error_ keeps the writer's line
  }
  return size;
}

bool GifWriter::failed(int giflibError) {
  broken_ = true;
  // A failed write already named the file and the cause (output()); other errors are giflib's.
  if (giflibError != E_GIF_ERR_WRITE_FAILED || error_.isEmpty())
    error_ = QStringLiteral("cannot write the GIF: %1")
                 .arg(QString::fromUtf8(GifErrorString(giflibError)));
  return false;
}

void GifWriter::release() {
  if (!gif_) return;
  discard_ = true;  // EGifCloseFile writes the trailer: a FIFO reader must not get it
  int error = 0;
  EGifCloseFile(gif_, &error);
  gif_ = nullptr;
  discard_ = false;
}

bool GifWriter::open(const QString& path, QSize size, int delayCentiseconds, int loops) {
  release();
  file_.reset();
  error_.clear();
  broken_ = false;
  done_ = false;
  if (size.width() < 1 || size.height() < 1 || size.width() > 65535 || size.height() > 65535) {
    error_ = QStringLiteral("GIF size must be 1..65535 pixels per side");
    return false;
  }
  size_ = size;
  delay_ = std::clamp(delayCentiseconds, 1, 65535);
  frames_ = 0;
  try {
    file_ = std::make_unique<OutputFile>(path.toStdString());
  } catch (const std::exception& e) {
    error_ = QString::fromUtf8(e.what());
    return false;
  }
  int error = 0;
  gif_ = EGifOpen(this, &GifWriter::output, &error);
  if (!gif_) return failed(error);
  EGifSetGifVersion(gif_, true);
  // No global colour table: every frame brings its own.
  if (EGifPutScreenDesc(gif_, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
    return failed(gif_->Error);
  // NETSCAPE2.0 application extension: the loop count.
  const int count = std::clamp(loops, 0, 65535);
  const GifByteType loop[3] = {1, static_cast<GifByteType>(count & 0xff),
                               static_cast<GifByteType>(count >> 8)};
  if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif_) == GIF_ERROR)
    return failed(gif_->Error);
  return true;
}

bool GifWriter::addFrame(const QImage& frame) {
  if (!gif_ || broken_) {
    if (error_.isEmpty()) error_ = QStringLiteral("GIF writer is not open");
    return false;
  }
  QImage image = frame.size() == size_
                     ? frame
                     : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  image = image.convertToFormat(QImage::Format_RGB32);
  IndexedFrame ix = indexColours(image);
  // Graphic control extension: disposal "leave in place", the delay, no transparency.
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.UserInputFlag = false;
  control.DelayTime = delay_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const auto length = static_cast<int>(EGifGCBToExtension(&control, extension));
  if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, length, extension) == GIF_ERROR)
    return failed(gif_->Error);
  std::vector<GifColorType> colours;
  colours.reserve(ix.palette.size());
  for (QRgb c : ix.palette)
    colours.push_back({static_cast<GifByteType>(qRed(c)), static_cast<GifByteType>(qGreen(c)),
                       static_cast<GifByteType>(qBlue(c))});
  ColorMapObject* map = GifMakeMapObject(static_cast<int>(colours.size()), colours.data());
  if (!map) return failed(E_GIF_ERR_NOT_ENOUGH_MEM);
  const bool described =
      EGifPutImageDesc(gif_, 0, 0, size_.width(), size_.height(), false, map) != GIF_ERROR;
  GifFreeMapObject(map);  // EGifPutImageDesc keeps its own copy
  if (!described) return failed(gif_->Error);
  for (int y = 0; y < size_.height(); ++y)
    if (EGifPutLine(gif_, ix.indices.data() + static_cast<std::size_t>(y) * size_.width(),
                    size_.width()) == GIF_ERROR)
      return failed(gif_->Error);
  ++frames_;
  return true;
}

bool GifWriter::close() {
  if (!gif_) {  // closed before, or never opened
    if (!done_ && error_.isEmpty()) error_ = QStringLiteral("GIF writer is not open");
    return done_;
  }
  if (broken_) {
    release();
    file_.reset();  // abandoned: the path keeps what it held
    return false;
  }
  int error = 0;
  const bool closed = EGifCloseFile(gif_, &error) != GIF_ERROR;  // the trailer; frees the state
  gif_ = nullptr;
  if (!closed) {
    failed(error);
  } else {
    try {
      file_->commit();
      done_ = true;
    } catch (const std::exception& e) {
      error_ = QString::fromUtf8(e.what());
      broken_ = true;
    }
  }
  file_.reset();  // committed, or abandoned: the path keeps what it held
  return done_;
}

}  // namespace ropescope::ui
