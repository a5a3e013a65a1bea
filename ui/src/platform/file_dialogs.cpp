#include "platform/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace ropescope::ui {

namespace {

QString& sceneFolder() {
  static QString folder;
  return folder;
}

FileDialogHook& hook() {
  static FileDialogHook h;
  return h;
}

QString settingsKey(FileKind kind) {
  static const char* const names[] = {"scene", "picture", "sound",     "ids",   "tokens",
                                      "model", "figure",  "animation", "arrays"};
  return QStringLiteral("folders/%1").arg(QLatin1String(names[static_cast<int>(kind)]));
}

// Asks the hook or shows the dialog; remembers the folder of what came back (a chosen folder's
// parent, where its siblings are).
QStringList ask(QWidget* parent, const FileDialogRequest& r, QString* selected) {
  QStringList paths;
  if (hook()) {
    paths = hook()(r);
  } else {
    switch (r.ask) {
      case FileAsk::Open:
        paths << QFileDialog::getOpenFileName(parent, r.title, r.start, r.filter, selected);
        break;
      case FileAsk::OpenMany:
        paths = QFileDialog::getOpenFileNames(parent, r.title, r.start, r.filter, selected);
        break;
      case FileAsk::Folder:
        paths << QFileDialog::getExistingDirectory(parent, r.title, r.start);
        break;
      case FileAsk::Save:
        paths << QFileDialog::getSaveFileName(parent, r.title, r.start, r.filter, selected);
        break;
    }
  }
  paths.removeAll(QString());
  if (!paths.isEmpty()) rememberFolder(r.kind, paths.front());
  return paths;
}

QString first(const QStringList& paths) {
  return paths.isEmpty() ? QString() : paths.front();
}

}  // namespace

void setSceneFolder(const QString& folder) {
  sceneFolder() = folder;
}

QString startFolder(FileKind kind) {
  const QString last = QSettings().value(settingsKey(kind)).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
  if (!sceneFolder().isEmpty() && QFileInfo(sceneFolder()).isDir()) return sceneFolder();
  return QDir::currentPath();
}

void rememberFolder(FileKind kind, const QString& path) {
  QSettings().setValue(settingsKey(kind), QFileInfo(path).absolutePath());
}

QString askOpenFile(QWidget* parent, FileKind kind, const QString& title, const QString& filter) {
  return first(ask(parent, {FileAsk::Open, kind, title, startFolder(kind), filter}, nullptr));
}

QStringList askOpenFiles(QWidget* parent, FileKind kind, const QString& title,
                         const QString& filter) {
  return ask(parent, {FileAsk::OpenMany, kind, title, startFolder(kind), filter}, nullptr);
}

QString askFolder(QWidget* parent, FileKind kind, const QString& title) {
  return first(ask(parent, {FileAsk::Folder, kind, title, startFolder(kind), QString()}, nullptr));
}

QString askSaveFile(QWidget* parent, FileKind kind, const QString& title, const QString& name,
                    const QString& filter, QString* selected) {
  const QString start =
      QFileInfo(name).isAbsolute() ? name : QDir(startFolder(kind)).filePath(name);
  return first(ask(parent, {FileAsk::Save, kind, title, start, filter}, selected));
}

void setFileDialogHook(FileDialogHook answer) {
  hook() = std::move(answer);
}

}  // namespace ropescope::ui
