// Adding picture files to the layout from the GUI (menus, drag and drop): the core builds each
// segment from its files; a file the core refuses is reported and the rest of the scene kept.
#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

#include "ropescope/layout.h"

class QWidget;

namespace ropescope::ui {

class SceneModel;

class PictureImporter : public QObject {
  Q_OBJECT

 public:
  explicit PictureImporter(SceneModel* model, QObject* parent = nullptr);

  // Each file an image segment (an animated GIF/WebP gives its first frame). Returns how many
  // segments were added; every refused file is named in message().
  int addImages(const QStringList& files);
  // One video segment: a folder of frames, one animated GIF/WebP, or several frame files in
  // the order given.
  int addVideo(const QStringList& paths);
  // What a drop holds: a folder is a video, several files are several images, an animated
  // GIF/WebP is a video.
  int addDropped(const QStringList& paths);

  void imageDialog(QWidget* parent);
  void videoDialog(QWidget* parent);

  // The last import's problems, one line per file; empty when all was well.
  QString message() const { return message_; }

 signals:
  // Emitted after every import, with message() (empty: nothing went wrong).
  void imported(const QString& message);

 private:
  int append(const std::vector<Segment>& segments, const QStringList& problems);

  SceneModel* model_;
  QString message_;
};

}  // namespace ropescope::ui
