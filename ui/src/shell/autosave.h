// Autosave: while the scene has unsaved changes it is written every minute (ROPESCOPE_AUTOSAVE_MS
// or setInterval for tests) to <AppDataLocation>/autosave/, atomically, one file per running
// window, whose lock file (QLockFile) says the window still runs. A save or a clean close
// removes it; a crash or a kill leaves it, and the next start offers it back (orphans()).
#pragma once

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "ropescope/scene.h"

class QTimer;

namespace ropescope::ui {

class SceneModel;

class Autosave : public QObject {
  Q_OBJECT

 public:
  // `modified` says whether the scene has unsaved changes, `file` the scene file it came from
  // (empty for an untitled scene), restored with it.
  Autosave(SceneModel* model, std::function<bool()> modified, std::function<QString()> file,
           QObject* parent = nullptr);
  ~Autosave() override;  // a clean end: the autosave goes

  static constexpr int kDefaultIntervalMs = 60000;
  void setInterval(int ms);
  // What is written: by default the model's scene (its last valid one while an edit is
  // invalid); a window whose model shows something else for a while (the tour) says what.
  void setSceneSource(std::function<Scene()> source) { source_ = std::move(source); }
  int interval() const;
  // This window's autosave file (it exists only while there are unsaved changes to keep).
  QString scenePath() const { return base_ + QStringLiteral(".json"); }
  // Writes the scene now if it has unsaved changes not yet written, removes the autosave if
  // there are none; false when writing failed (the reason is in lastError()).
  bool saveNow();
  // The scene was saved or the changes dropped: the autosave goes.
  void discard();
  QString lastError() const { return error_; }

  static QString folder();

  // An autosave whose window no longer runs. While this object lives its lock is held, so that
  // two windows starting at once do not both offer it.
  struct Orphan {
    QString scenePath;
    QString originalFile;  // the scene file it was edited from; empty: untitled
    QDateTime written;
    std::shared_ptr<QLockFile> lock;
  };
  // Newest first.
  static QList<Orphan> orphans();
  // Deletes the orphan's files (after it was restored or discarded).
  static void remove(const Orphan& orphan);

 signals:
  // After each timed save (tests wait for it).
  void ticked();

 private:
  void tick();

  SceneModel* model_;
  std::function<bool()> modified_;
  std::function<QString()> file_;
  std::function<Scene()> source_;
  QString base_;  // folder/autosave-<pid>-<n>
  std::unique_ptr<QLockFile> lock_;
  QTimer* timer_;
  bool written_ = false;
  Scene writtenScene_;
  QString writtenFile_;
  QString error_;
};

}  // namespace ropescope::ui
