#include "model/segment_names.h"

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

QString audioSegmentName(const Layout& layout, std::size_t segment) {
  if (segment >= layout.segments.size() || !layout.segments[segment].isAudio()) return {};
  int number = 0;
  for (std::size_t s = 0; s <= segment; ++s)
    if (layout.segments[s].isAudio()) ++number;
  QString name = QObject::tr("audio %1").arg(number);
  const Segment& seg = layout.segments[segment];
  if (seg.source.isFile())
    name +=
        QStringLiteral(" (%1)").arg(QFileInfo(QString::fromStdString(seg.source.path)).fileName());
  return name;
}

QString segmentName(const Layout& layout, std::size_t segment) {
  const QString visual = visualSegmentName(layout, segment);
  return visual.isEmpty() ? audioSegmentName(layout, segment) : visual;
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

QString temporalPatchText(int temporal, int count) {
  return QStringLiteral("temporal patch %1 of %2").arg(temporal).arg(count);
}

}  // namespace ropescope::ui
