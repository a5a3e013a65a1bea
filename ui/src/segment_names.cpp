#include "segment_names.h"

#include <QDir>
#include <QFileInfo>

namespace ropescope::ui {

QString visualSegmentName(const Layout& layout, std::size_t segment) {
  if (segment >= layout.segments.size() || !layout.segments[segment].isVisual()) return {};
  const SegmentKind kind = layout.segments[segment].kind;
  int number = 0;
  for (std::size_t s = 0; s <= segment; ++s)
    if (layout.segments[s].kind == kind) ++number;
  const Segment& seg = layout.segments[segment];
  QString name = kind == SegmentKind::Video ? QObject::tr("video %1").arg(number)
                                            : QObject::tr("image %1").arg(number);
  if (seg.source.isFile()) {
    const QString path = QString::fromStdString(seg.source.path);
    QString file = QFileInfo(path).fileName();
    if (file.isEmpty()) file = QFileInfo(path).dir().dirName();  // a folder of frames
    name += QStringLiteral(" (%1)").arg(file);
  }
  return name;
}

QString pixelSizeText(int width, int height) {
  return QString::fromUtf8("%1\xc3\x97%2 px (W\xc3\x97H)").arg(width).arg(height);
}

QString gridText(int rows, int cols) {
  return QString::fromUtf8(
             "grid %1\xc3\x97%2 (rows\xc3\x97"
             "cols)")
      .arg(rows)
      .arg(cols);
}

}  // namespace ropescope::ui
