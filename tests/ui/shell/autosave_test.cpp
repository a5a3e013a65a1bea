// Autosave end to end: a real window in a child process changes its scene, autosaves it and is
// killed (SIGKILL); the next start offers the changes back and restores them, unsaved, under
// their file name. Saving or a clean close leaves no autosave.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "gui_test_util.h"
#include "model/scene_model.h"
#include "ropescope/scene.h"
#include "shell/autosave.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// Points AppDataLocation at a fresh folder for one test (and back after it).
struct DataHome {
  QTemporaryDir dir;
  QByteArray previous = qgetenv("XDG_DATA_HOME");
  DataHome() { qputenv("XDG_DATA_HOME", dir.path().toLocal8Bit()); }
  ~DataHome() {
    qputenv("XDG_DATA_HOME", previous);
    qunsetenv("ROPESCOPE_AUTOSAVE_ANSWER");
  }
};

QStringList autosaves() {
  return QDir(Autosave::folder()).entryList({QStringLiteral("autosave-*")}, QDir::Files);
}

Scene changedScene() {
  Scene s = fixedScene();
  s.layout = parseLayoutSpec("t6,i4x5,t3");
  s.designParams.set("alpha", 0.25);
  s.frequency.rotary.base = 5e5;
  return s;
}

TEST(Autosave, KilledWindowsChangesAreOfferedBackAndRestored) {
  DataHome home;
  QTemporaryDir work;
  const QString original = work.filePath(QStringLiteral("paper.json"));
  const QString changed = work.filePath(QStringLiteral("changed.json"));
  saveSceneFile(fixedScene(), original.toStdString());
  saveSceneFile(changedScene(), changed.toStdString());

  QProcess child;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("XDG_DATA_HOME"), home.dir.path());
  env.insert(QStringLiteral("ROPESCOPE_AUTOSAVE_MS"), QStringLiteral("200"));
  child.setProcessEnvironment(env);
  child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  child.start(QStringLiteral(ROPESCOPE_AUTOSAVE_CHILD), {original, changed});
  ASSERT_TRUE(child.waitForStarted(-1));
  QByteArray said;
  // Until the child says it autosaved (or ends): no time limit but ctest's, a slow machine
  // only takes longer.
  while (!said.contains("autosaved") && child.state() == QProcess::Running)
    if (child.waitForReadyRead(-1)) said += child.readAllStandardOutput();
  ASSERT_TRUE(said.contains("autosaved")) << said.toStdString();
  const QString autosaved = QString::fromUtf8(said).section(QLatin1Char(' '), 1).trimmed();
  EXPECT_TRUE(loadSceneFile(autosaved.toStdString()) == changedScene());
  child.kill();  // SIGKILL: no close event, no clean-up
  ASSERT_TRUE(child.waitForFinished(-1));
  EXPECT_EQ(child.exitStatus(), QProcess::CrashExit);
  ASSERT_TRUE(QFile::exists(autosaved));

  // The next start: the changes come back, unsaved, under the file's name.
  qputenv("ROPESCOPE_AUTOSAVE_ANSWER", "restore");
  MainWindow w;
  w.startWith(fixedScene());
  ASSERT_TRUE(w.offerAutosave());
  EXPECT_TRUE(w.model()->scene() == changedScene());
  EXPECT_TRUE(w.isModified());
  EXPECT_EQ(w.currentFile(), QFileInfo(original).absoluteFilePath());
  EXPECT_TRUE(w.windowTitle().startsWith(QStringLiteral("paper.json")))
      << w.windowTitle().toStdString();
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("Restored")));
  // The child's files are gone; this window keeps the restored changes in its own autosave.
  EXPECT_FALSE(QFile::exists(autosaved));
  EXPECT_TRUE(QFile::exists(w.autosave()->scenePath()));
  // Offered once only.
  EXPECT_FALSE(w.offerAutosave());

  // Saving removes the autosave; the file holds the restored scene.
  ASSERT_TRUE(w.saveTo(original));
  EXPECT_FALSE(QFile::exists(w.autosave()->scenePath()));
  EXPECT_TRUE(loadSceneFile(original.toStdString()) == changedScene());
}

TEST(Autosave, WritesOnlyWhileModifiedAndNotOnACleanClose) {
  DataHome home;
  QTemporaryDir work;
  const QString file = work.filePath(QStringLiteral("s.json"));
  {
    MainWindow w;
    w.startWith(fixedScene());
    w.autosave()->setInterval(50);
    QSignalSpy ticks(w.autosave(), &Autosave::ticked);
    ASSERT_TRUE(waitUntil([&] { return ticks.count() >= 1; }));
    EXPECT_FALSE(QFile::exists(w.autosave()->scenePath()));  // nothing unsaved
    w.model()->setScene(changedScene());
    ASSERT_TRUE(waitUntil([&] { return QFile::exists(w.autosave()->scenePath()); }));
    // An invalid edit: the autosave keeps the last valid scene (a file that opens).
    Scene bad = changedScene();
    bad.frequency.rotary.base = -1;
    w.model()->setScene(bad);
    const qsizetype ticksBefore = ticks.count();
    ASSERT_TRUE(waitUntil([&] { return ticks.count() > ticksBefore; }));
    EXPECT_TRUE(loadSceneFile(w.autosave()->scenePath().toStdString()) == changedScene());
    // Back to the saved scene: nothing to keep.
    w.model()->setScene(fixedScene());
    ASSERT_TRUE(waitUntil([&] { return !QFile::exists(w.autosave()->scenePath()); }));
    w.model()->setScene(changedScene());
    ASSERT_TRUE(waitUntil([&] { return QFile::exists(w.autosave()->scenePath()); }));
    ASSERT_TRUE(w.saveTo(file));
    EXPECT_TRUE(autosaves().filter(QStringLiteral(".json")).isEmpty())
        << autosaves().join(' ').toStdString();
    w.show();
    EXPECT_TRUE(w.close());  // saved: no prompt
  }
  // A clean close leaves nothing, lock files included, and nothing is offered.
  EXPECT_TRUE(autosaves().isEmpty()) << autosaves().join(' ').toStdString();
  qputenv("ROPESCOPE_AUTOSAVE_ANSWER", "restore");
  MainWindow next;
  EXPECT_FALSE(next.offerAutosave());
}

TEST(Autosave, DiscardRemovesTheOrphanAndRunningWindowsAreNotOffered) {
  DataHome home;
  // A window that still runs (this process): its autosave is not an orphan.
  MainWindow running;
  running.startWith(fixedScene());
  running.model()->setScene(changedScene());
  ASSERT_TRUE(running.autosave()->saveNow());
  ASSERT_TRUE(QFile::exists(running.autosave()->scenePath()));
  EXPECT_TRUE(Autosave::orphans().isEmpty());
  // One left by a process that is gone: a scene file with no live lock.
  const QString orphan = Autosave::folder() + QStringLiteral("/autosave-999999-0.json");
  saveSceneFile(changedScene(), orphan.toStdString());
  ASSERT_EQ(Autosave::orphans().size(), 1);
  // Asked for real: the question names the scene, Discard is clicked.
  qunsetenv("ROPESCOPE_AUTOSAVE_ANSWER");
  MainWindow w;
  w.startWith(fixedScene());
  w.show();
  QString question;
  QTimer::singleShot(300, [&question] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    question = box->text();
    QDir().mkpath(QStringLiteral(ROPESCOPE_UI_OUTPUT));
    box->grab().save(QStringLiteral(ROPESCOPE_UI_OUTPUT "/autosave_restore_question.png"));
    for (QAbstractButton* b : box->buttons())
      if (b->text() == QStringLiteral("Discard")) b->click();
  });
  EXPECT_FALSE(w.offerAutosave());
  EXPECT_TRUE(question.contains(QStringLiteral("an untitled scene"))) << question.toStdString();
  EXPECT_TRUE(question.contains(QStringLiteral("Restore them?"))) << question.toStdString();
  EXPECT_TRUE(w.model()->scene() == fixedScene());
  EXPECT_FALSE(QFile::exists(orphan));
  EXPECT_TRUE(QFile::exists(running.autosave()->scenePath()));
}

}  // namespace
