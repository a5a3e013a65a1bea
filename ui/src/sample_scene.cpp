#include "sample_scene.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include "file_output.h"
#include "ropescope/layout_files.h"

// The resource lives in the static ropescope_ui library: referencing its initialiser keeps it
// linked in.
static void initSampleResources() {
  Q_INIT_RESOURCE(samples);
}

namespace ropescope::ui {

QString samplePicturePath() {
  initSampleResources();
  QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  if (dir.isEmpty()) dir = QDir::tempPath() + QStringLiteral("/ropescope");
  dir += QStringLiteral("/samples");
  if (!QDir().mkpath(dir)) return {};
  const QString path = dir + QStringLiteral("/castle.png");
  QFile resource(QStringLiteral(":/samples/castle.png"));
  if (!resource.open(QIODevice::ReadOnly)) return {};
  const QByteArray bytes = resource.readAll();
  // Rewritten when it differs: a stale or damaged cache copy must not become the default.
  QFile existing(path);
  if (existing.open(QIODevice::ReadOnly) && existing.readAll() == bytes) return path;
  existing.close();
  try {
    writeBytes(path.toStdString(), bytes, "sample");  // the one output path: whole or not at all
  } catch (const std::exception&) {
    return {};
  }
  return path;
}

Scene sampleScene() {
  Scene s = defaultScene();
  const QString picture = samplePicturePath();
  if (picture.isEmpty()) return s;
  try {
    s.layout.segments = {Segment::text(4), imageSegmentFromFile(picture.toStdString(), s.imageGrid),
                         Segment::text(8)};
    s.design = "circle";
    // The first text token after the picture, where a question about it starts: hard
    // embedding puts it nearest the last patches, the cone equally far from all.
    s.selectedText = 4;
  } catch (const std::exception&) {
    return defaultScene();
  }
  return s;
}

}  // namespace ropescope::ui
