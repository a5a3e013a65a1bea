// Adding sound files to the layout from the GUI (File -> Add sound..., drag and drop): each file
// becomes an aud: item that the core reads (its probe, limits and token count); a file the core
// refuses is reported and the rest of the scene kept, as with pictures.
#pragma once

#include <QObject>
#include <QStringList>

class QWidget;

namespace ropescope::ui {

class SceneModel;

// The extensions offered and recognised in drops (libsndfile's WAV, FLAC, OGG/Opus, MP3).
const QStringList& soundExtensions();
bool isSoundFile(const QString& path);

class SoundImporter : public QObject {
  Q_OBJECT

 public:
  explicit SoundImporter(SceneModel* model, QObject* parent = nullptr);

  // Each file an audio segment (the item aud:FILE of a layout spec). Returns how many were
  // added; every refused file is named in message().
  int addSounds(const QStringList& files);
  void soundDialog(QWidget* parent);
  QString message() const { return message_; }

 signals:
  void imported(const QString& message);

 private:
  SceneModel* model_;
  QString message_;
};

}  // namespace ropescope::ui
