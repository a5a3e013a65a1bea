// Every file dialog of the desktop app goes through here: it starts in the last folder used for
// its kind of file, else in the scene's folder, and a test can answer it without a modal window.
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace ropescope::ui {

// The kinds of file the dialogs ask for; each remembers its own last folder.
enum class FileKind { Scene, Picture, Sound, Ids, Tokens, Model, Figure, Animation, Arrays };

// What a dialog asks: an existing file, several, a folder, or a file to write.
enum class FileAsk { Open, OpenMany, Folder, Save };

struct FileDialogRequest {
  FileAsk ask = FileAsk::Open;
  FileKind kind = FileKind::Scene;
  QString title;
  QString start;   // the folder it starts in; a Save's suggested name joined to it
  QString filter;  // ";;"-separated, as QFileDialog takes it
};

// The folder of the scene's file; empty for an untitled scene (the main window keeps it).
void setSceneFolder(const QString& folder);
// Where a dialog for `kind` starts: the last folder a dialog of that kind returned (this run or
// an earlier one), else the scene's folder, else the working folder.
QString startFolder(FileKind kind);
// Notes the folder holding `path` as the last one used for `kind`.
void rememberFolder(FileKind kind, const QString& path);

// The dialogs. Empty when cancelled. A Save's `name` is the suggested file name; `selected`
// gets the filter chosen.
QString askOpenFile(QWidget* parent, FileKind kind, const QString& title, const QString& filter);
QStringList askOpenFiles(QWidget* parent, FileKind kind, const QString& title,
                         const QString& filter);
QString askFolder(QWidget* parent, FileKind kind, const QString& title);
QString askSaveFile(QWidget* parent, FileKind kind, const QString& title, const QString& name,
                    const QString& filter, QString* selected = nullptr);

// Tests: every dialog calls `answer` instead of showing itself (its paths, empty to cancel);
// an empty function shows the dialogs again.
using FileDialogHook = std::function<QStringList(const FileDialogRequest&)>;
void setFileDialogHook(FileDialogHook answer);

}  // namespace ropescope::ui
