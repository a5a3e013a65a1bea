#include "shell/autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <exception>

#include "model/scene_model.h"
#include "ropescope/atomic_file.h"

namespace ropescope::ui {

namespace {

QString originPath(const QString& scenePath) {
  return scenePath.left(scenePath.size() - 5) + QStringLiteral(".origin");
}

QString lockPath(const QString& scenePath) {
  return scenePath.left(scenePath.size() - 5) + QStringLiteral(".lock");
}

int intervalFromEnvironment() {
  bool ok = false;
  const int ms = qEnvironmentVariableIntValue("ROPESCOPE_AUTOSAVE_MS", &ok);
  return ok && ms > 0 ? ms : Autosave::kDefaultIntervalMs;
}

}  // namespace

QString Autosave::folder() {
  const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  return data.isEmpty() ? QString() : data + QStringLiteral("/autosave");
}

Autosave::Autosave(SceneModel* model, std::function<bool()> modified, std::function<QString()> file,
                   QObject* parent)
    : QObject(parent),
      model_(model),
      modified_(std::move(modified)),
      file_(std::move(file)),
      timer_(new QTimer(this)) {
  static std::atomic<int> counter{0};
  timer_->setInterval(intervalFromEnvironment());
  connect(timer_, &QTimer::timeout, this, &Autosave::tick);
  // No place for data (no HOME): nothing is autosaved, and saveNow() says why.
  if (folder().isEmpty() || !QDir().mkpath(folder())) return;
  base_ = folder() + QStringLiteral("/autosave-%1-%2")
                         .arg(QCoreApplication::applicationPid())
                         .arg(counter.fetch_add(1));
  lock_ = std::make_unique<QLockFile>(lockPath(scenePath()));
  lock_->setStaleLockTime(0);  // stale only when its process is gone, never by age
  lock_->tryLock(0);
  timer_->start();
}

Autosave::~Autosave() {
  discard();
}

void Autosave::setInterval(int ms) {
  timer_->start(std::max(ms, 1));
}

int Autosave::interval() const {
  return timer_->interval();
}

void Autosave::tick() {
  saveNow();
  emit ticked();
}

bool Autosave::saveNow() {
  if (base_.isEmpty()) {
    error_ = tr("no folder for application data (is HOME set?)");
    return false;
  }
  if (!modified_()) {
    discard();
    return true;
  }
  // What Save would write; while an edit is invalid, the last valid scene (a file that opens).
  const Scene scene =
      source_ ? source_() : (model_->isStale() ? model_->validScene() : model_->scene());
  const QString file = file_();
  if (written_ && writtenScene_ == scene && writtenFile_ == file) return true;
  try {
    const QString origin = file.isEmpty() ? QString() : QFileInfo(file).absoluteFilePath();
    writeFileAtomically(originPath(scenePath()).toStdString(), origin.toUtf8().toStdString(),
                        "autosave");
    saveSceneFile(scene, scenePath().toStdString());
    written_ = true;
    writtenScene_ = scene;
    writtenFile_ = file;
    error_.clear();
    return true;
  } catch (const std::exception& e) {
    error_ = QString::fromUtf8(e.what());
    return false;
  }
}

void Autosave::discard() {
  if (base_.isEmpty()) return;
  QFile::remove(scenePath());
  QFile::remove(originPath(scenePath()));
  written_ = false;
}

QList<Autosave::Orphan> Autosave::orphans() {
  QList<Orphan> found;
  if (folder().isEmpty()) return found;
  const QDir dir(folder());
  const QStringList names =
      dir.entryList({QStringLiteral("autosave-*.json")}, QDir::Files, QDir::Time);
  for (const QString& name : names) {
    Orphan o;
    o.scenePath = dir.filePath(name);
    o.lock = std::make_shared<QLockFile>(lockPath(o.scenePath));
    o.lock->setStaleLockTime(0);
    // Taken only when the window that wrote it no longer runs (its lock is stale).
    if (!o.lock->tryLock(0)) continue;
    o.written = QFileInfo(o.scenePath).lastModified();
    QFile origin(originPath(o.scenePath));
    if (origin.open(QIODevice::ReadOnly)) o.originalFile = QString::fromUtf8(origin.readAll());
    found << o;
  }
  return found;
}

void Autosave::remove(const Orphan& orphan) {
  QFile::remove(orphan.scenePath);
  QFile::remove(originPath(orphan.scenePath));
  if (orphan.lock) orphan.lock->unlock();  // deletes the lock file
}

}  // namespace ropescope::ui
