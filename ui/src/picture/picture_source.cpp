#include "picture/picture_source.h"

#include <QCache>
#include <QFileInfo>
#include <QImageReader>
#include <QPainter>

#include <algorithm>

namespace ropescope::ui {

namespace {

// The core accepts pictures up to 8192 x 8192 (image_probe.h); 16-bit PNGs decode to 8 bytes a
// pixel, above Qt 6.4's default 128 MB allocation limit.
constexpr int kAllocationLimitMb = 512;
// Decoded frames kept: enough for a few photos and a short video at once.
constexpr qsizetype kCacheBytes = 384LL * 1024 * 1024;

QCache<QString, QImage>& cache() {
  static QCache<QString, QImage> images(kCacheBytes);
  return images;
}

QString frameFile(const SegmentSource& source, int frame, int* indexInFile) {
  *indexInFile = 0;
  switch (source.kind) {
    case SourceKind::FrameList:
    case SourceKind::Folder:
      if (source.frames.empty()) return {};
      return QString::fromStdString(source.frames[static_cast<std::size_t>(
          std::clamp(frame, 0, static_cast<int>(source.frames.size()) - 1))]);
    case SourceKind::Animation:
      *indexInFile = std::clamp(frame, 0, std::max(0, source.frameCount - 1));
      return QString::fromStdString(source.path);
    default:
      return QString::fromStdString(source.path);
  }
}

// The cache key names the file's state too, so a picture replaced on disk is read again.
QString cacheKey(const QString& file, int index, QSize size) {
  const QFileInfo info(file);
  return QStringLiteral("%1|%2|%3|%4x%5")
      .arg(file)
      .arg(info.lastModified().toMSecsSinceEpoch())
      .arg(index)
      .arg(size.width())
      .arg(size.height());
}

QImage decode(const QString& file, int index, QString* error) {
  QImageReader::setAllocationLimit(kAllocationLimitMb);
  QImageReader reader(file);
  reader.setAutoTransform(true);  // EXIF orientation, as the core's probe and Hugging Face do
  if (index > 0 && !reader.jumpToImage(index)) {
    // GIF cannot jump: read forward instead.
    for (int k = 0; k < index; ++k)
      if (reader.read().isNull()) break;
  }
  QImage image = reader.read();
  if (image.isNull()) {
    if (error) *error = QStringLiteral("%1: %2").arg(file, reader.errorString());
    return image;
  }
  if (!image.hasAlphaChannel()) return image.convertToFormat(QImage::Format_RGB32);
  // Transparent pixels over white, as qwen-vl-utils turns RGBA pictures into RGB.
  QImage opaque(image.size(), QImage::Format_RGB32);
  opaque.fill(Qt::white);
  QPainter painter(&opaque);
  painter.drawImage(0, 0, image);
  painter.end();
  return opaque;
}

QImage cached(const SegmentSource& source, int frame, QSize size, QString* error) {
  int index = 0;
  const QString file = frameFile(source, frame, &index);
  if (file.isEmpty()) {
    if (error) *error = QStringLiteral("segment has no picture file");
    return {};
  }
  const QString key = cacheKey(file, index, size);
  if (QImage* hit = cache().object(key)) return *hit;
  QImage image;
  if (size.isEmpty()) {
    image = decode(file, index, error);
  } else {
    const QImage original = cached(source, frame, QSize(), error);
    if (original.isNull()) return {};
    image = original.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  }
  if (image.isNull()) return {};
  cache().insert(key, new QImage(image), std::max<qsizetype>(1, image.sizeInBytes()));
  return image;
}

}  // namespace

QImage pictureFrame(const SegmentSource& source, int frame, QString* error) {
  return cached(source, frame, QSize(), error);
}

QImage resizedPictureFrame(const SegmentSource& source, int frame, QString* error) {
  const QSize size(source.resizedWidth, source.resizedHeight);
  if (size.isEmpty()) return pictureFrame(source, frame, error);
  return cached(source, frame, size, error);
}

}  // namespace ropescope::ui
