// The ui's side of core's one output path (ropescope/atomic_file.h): a figure, a GIF or a PNG
// frame is encoded in memory (QBuffer) and handed to writeFileAtomically, which decides by what
// is at the path (a link, a FIFO, a device, a read-only file, a folder) how it is written.
#pragma once

#include <QBuffer>
#include <QByteArray>
#include <QImage>

#include <string>

#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"

namespace ropescope::ui {

inline void writeBytes(const std::string& path, const QByteArray& bytes,
                       const std::string& field = "out") {
  writeFileAtomically(path, {ByteSpan{bytes.constData(), static_cast<std::size_t>(bytes.size())}},
                      field);
}

inline QByteArray pngBytes(const QImage& image, const std::string& path) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (image.isNull() || !image.save(&buffer, "PNG"))
    throw InputError("cannot encode the PNG image for \"" + path + "\"", "out");
  return bytes;
}

inline void writePng(const std::string& path, const QImage& image,
                     const std::string& field = "out") {
  writeBytes(path, pngBytes(image, path), field);
}

}  // namespace ropescope::ui
