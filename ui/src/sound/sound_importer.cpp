#include "sound/sound_importer.h"

#include <QFileInfo>

#include <exception>
#include <vector>

#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"

namespace ropescope::ui {

const QStringList& soundExtensions() {
  static const QStringList ext = {QStringLiteral(".wav"),  QStringLiteral(".flac"),
                                  QStringLiteral(".ogg"),  QStringLiteral(".oga"),
                                  QStringLiteral(".opus"), QStringLiteral(".mp3")};
  return ext;
}

bool isSoundFile(const QString& path) {
  for (const QString& e : soundExtensions())
    if (path.endsWith(e, Qt::CaseInsensitive)) return true;
  return false;
}

SoundImporter::SoundImporter(SceneModel* model, QObject* parent) : QObject(parent), model_(model) {}

int SoundImporter::addSounds(const QStringList& files) {
  std::vector<Segment> segments;
  QStringList problems;
  for (const QString& file : files) {
    const QString path = QFileInfo(file).absoluteFilePath();
    // A layout spec separates items with commas: such a path cannot be an aud: item.
    if (path.contains(QLatin1Char(','))) {
      problems << tr("%1: a sound file's path may not contain a comma").arg(file);
      continue;
    }
    try {
      // Read as the file it is, not as item 1 of a layout: a refusal names the file only.
      segments.push_back(
          soundSegmentFromFile(path.toStdString(), audioTokenRuleOf(model_->scene().design)));
    } catch (const std::exception& e) {
      const QString what = QString::fromStdString(e.what());
      problems << (what.contains(QFileInfo(file).fileName())
                       ? what
                       : QStringLiteral("%1: %2").arg(file, what));
    }
  }
  message_ = problems.join(QLatin1Char('\n'));
  if (!segments.empty())
    model_->edit([&](Scene& s) {
      for (const Segment& seg : segments) s.layout.segments.push_back(seg);
    });
  emit imported(message_);
  return static_cast<int>(segments.size());
}

void SoundImporter::soundDialog(QWidget* parent) {
  QStringList patterns;
  for (const QString& e : soundExtensions()) patterns << QLatin1Char('*') + e;
  const QStringList files =
      askOpenFiles(parent, FileKind::Sound, tr("Add sound"),
                   tr("Sounds (%1);;All files (*)").arg(patterns.join(QLatin1Char(' '))));
  if (!files.isEmpty()) addSounds(files);
}

}  // namespace ropescope::ui
