// Every entry of the menu bar, triggered on scenes that lack pictures, audio or a model: what a
// scene lacks is said before any file dialog (a message after the file was chosen, as the sound
// figure gave, fails), every file dialog starts beside the scene or in the folder its kind of file
// last came from (platform/file_dialogs.h), and an export says in the status bar what it wrote.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

#include <map>
#include <utility>
#include <vector>

#include "gui_test_util.h"
#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/layout_files.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

using Entry = std::pair<QString, QPointer<QAction>>;

// Every action of `menu` and its submenus, named by its path ("File/Export figure/sound…").
void collect(QMenu* menu, const QString& path, std::vector<Entry>& out) {
  for (QAction* a : menu->actions()) {
    if (a->isSeparator()) continue;
    const QString name = path + QLatin1Char('/') + a->text().remove(QLatin1Char('&'));
    if (a->menu())
      collect(a->menu(), name, out);
    else
      out.emplace_back(name, a);
  }
}

std::vector<Entry> menuEntries(MainWindow& w) {
  std::vector<Entry> out;
  for (QAction* top : w.menuBar()->actions())
    if (top->menu()) collect(top->menu(), top->text().remove(QLatin1Char('&')), out);
  return out;
}

// What happened while an entry ran, in order: "dialog <title>" and "message <text>".
struct Log {
  QStringList events;
  std::vector<FileDialogRequest> requests;
  QStringList written;  // the paths Save dialogs were answered with
};

// Answers every modal window as a user backing out would, noting message boxes. A QFileDialog
// showing at all is a dialog that bypassed file_dialogs.h (whose hook answers them all here).
class ModalAnswers : public QObject {
 public:
  explicit ModalAnswers(Log* log) : log_(log) {
    connect(&timer_, &QTimer::timeout, this, [this] {
      QWidget* m = QApplication::activeModalWidget();
      if (!m) return;
      if (qobject_cast<QFileDialog*>(m)) {
        ADD_FAILURE() << "a file dialog outside file_dialogs.h: " << m->windowTitle().toStdString();
        qobject_cast<QDialog*>(m)->reject();
        return;
      }
      if (auto* box = qobject_cast<QMessageBox*>(m)) {
        log_->events << QStringLiteral("message ") + box->text();
        QAbstractButton* b = box->escapeButton();
        if (!b && !box->buttons().isEmpty()) b = box->buttons().first();
        if (b) b->click();
        return;
      }
      if (auto* d = qobject_cast<QDialog*>(m)) {
        d->reject();
        return;
      }
      m->close();
    });
    timer_.start(10);
  }

 private:
  Log* log_;
  QTimer timer_;
};

// The extension a Save dialog's first filter names ("PNG image (*.png)" -> "png").
QString firstExtension(const QString& filter) {
  const auto m = QRegularExpression(QStringLiteral("\\*\\.([A-Za-z0-9]+)")).match(filter);
  return m.hasMatch() ? m.captured(1) : QStringLiteral("out");
}

QString folderOf(const FileDialogRequest& r) {
  const QFileInfo info(r.start);
  return QDir::cleanPath(info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

struct Case {
  std::string lacks;
  Scene scene;
};

std::vector<Case> cases() {
  const std::string castle = std::string(ROPESCOPE_SAMPLES) + "/castle.png";
  Scene none = fixedScene();  // a visual block without a picture file, no audio, no model
  Scene picture = fixedScene();
  picture.layout.segments = {Segment::text(4), imageSegmentFromFile(castle, picture.imageGrid),
                             Segment::text(4)};
  Scene sound = fixedScene();
  sound.layout.segments = {Segment::text(4), Segment::audio(8), Segment::text(4)};
  return {{"picture, audio and model", none},
          {"audio and model", picture},
          {"picture and model", sound}};
}

}  // namespace

TEST(MenuEntries, WhatASceneLacksIsSaidBeforeAFileAndDialogsStartBesideIt) {
  QTemporaryDir dir;
  Log log;
  QString answerFolder;  // where Save dialogs are answered
  int saves = 0;
  setFileDialogHook([&](const FileDialogRequest& r) {
    log.events << QStringLiteral("dialog ") + r.title;
    log.requests.push_back(r);
    if (r.ask != FileAsk::Save) return QStringList{};  // an open dialog is cancelled
    const QString path =
        QDir(answerFolder)
            .filePath(QStringLiteral("answer_%1.%2").arg(++saves).arg(firstExtension(r.filter)));
    log.written << path;
    return QStringList{path};
  });
  ModalAnswers answers(&log);

  int asked = 0;
  std::map<std::string, int> soundDialogs;
  for (const Case& c : cases()) {
    SCOPED_TRACE("scene without " + c.lacks);
    const QString sceneDir = dir.filePath(QString::fromStdString("scene " + c.lacks));
    answerFolder = dir.filePath(QString::fromStdString("answers " + c.lacks));
    ASSERT_TRUE(QDir().mkpath(sceneDir));
    ASSERT_TRUE(QDir().mkpath(answerFolder));
    QSettings().remove(QStringLiteral("folders"));  // no kind has a last folder yet
    std::map<FileKind, QString> lastFolder;         // what each kind should start in next

    MainWindow w;
    w.resize(1200, 800);
    w.show();
    const QString sceneFile = QDir(sceneDir).filePath(QStringLiteral("scene.json"));
    w.model()->setScene(c.scene);
    ASSERT_TRUE(w.saveTo(sceneFile));

    for (const auto& [name, action] : menuEntries(w)) {
      // Quit closes the window and the tour replaces the scene step by step: neither asks for
      // a file or needs anything.
      if (!action || name.endsWith(QStringLiteral("/Quit")) ||
          name.startsWith(QStringLiteral("Help/Tour")))
        continue;
      SCOPED_TRACE(name.toStdString());
      ASSERT_TRUE(w.openFile(sceneFile));  // the same saved scene before every entry
      log.events.clear();
      log.requests.clear();
      log.written.clear();
      action->trigger();
      ASSERT_TRUE(waitUntil([] { return !QApplication::activeModalWidget(); }));

      // Nothing is said after a file was chosen: a Save answered is a file written.
      bool afterDialog = false;
      for (const QString& event : log.events) {
        if (afterDialog && event.startsWith(QStringLiteral("message ")))
          ADD_FAILURE() << "said after the file dialog: " << event.toStdString();
        afterDialog = afterDialog || event.startsWith(QStringLiteral("dialog "));
      }
      for (const QString& path : log.written) {
        EXPECT_TRUE(QFileInfo::exists(path)) << path.toStdString();
        // The status bar says what was written.
        EXPECT_TRUE(w.statusBar()->currentMessage().contains(QDir::toNativeSeparators(path)))
            << w.statusBar()->currentMessage().toStdString();
      }
      // Each dialog starts where its kind of file last came from, else beside the scene.
      for (const FileDialogRequest& r : log.requests) {
        const auto last = lastFolder.find(r.kind);
        const QString expected = QDir::cleanPath(
            last == lastFolder.end() ? QFileInfo(sceneDir).absoluteFilePath() : last->second);
        EXPECT_EQ(folderOf(r).toStdString(), expected.toStdString()) << r.title.toStdString();
        if (r.ask == FileAsk::Save) lastFolder[r.kind] = QFileInfo(answerFolder).absoluteFilePath();
        ++asked;
      }
      if (action->objectName() == QStringLiteral("export_sound"))
        soundDialogs[c.lacks] = static_cast<int>(log.requests.size());
    }
  }
  setFileDialogHook({});
  EXPECT_GT(asked, 10);  // the dialogs were reached: the entries ran
  // The sound figure: a dialog only where the scene has audio.
  EXPECT_EQ(soundDialogs["picture, audio and model"], 0);
  EXPECT_EQ(soundDialogs["audio and model"], 0);
  EXPECT_EQ(soundDialogs["picture and model"], 1);
}

// The folder a dialog of one kind returned is where the next of that kind starts, in this run
// and the next (QSettings); other kinds still start beside the scene.
TEST(MenuEntries, EachKindOfFileRemembersItsFolder) {
  QTemporaryDir dir;
  QSettings().remove(QStringLiteral("folders"));
  const QString sceneDir = dir.filePath(QStringLiteral("scenes"));
  const QString pictures = dir.filePath(QStringLiteral("pictures"));
  ASSERT_TRUE(QDir().mkpath(sceneDir));
  ASSERT_TRUE(QDir().mkpath(pictures));
  MainWindow w;
  w.model()->setScene(fixedScene());
  ASSERT_TRUE(w.saveTo(QDir(sceneDir).filePath(QStringLiteral("s.json"))));
  const QString scenes = QFileInfo(sceneDir).absoluteFilePath();
  EXPECT_EQ(startFolder(FileKind::Picture), scenes);
  EXPECT_EQ(startFolder(FileKind::Figure), scenes);
  rememberFolder(FileKind::Picture, QDir(pictures).filePath(QStringLiteral("castle.png")));
  EXPECT_EQ(startFolder(FileKind::Picture), QFileInfo(pictures).absoluteFilePath());
  EXPECT_EQ(startFolder(FileKind::Figure), scenes);
  // A folder that is gone is not offered.
  ASSERT_TRUE(QDir(pictures).removeRecursively());
  EXPECT_EQ(startFolder(FileKind::Picture), scenes);
}
