// The ropescope binary itself: the desktop app without a display says in one line that it needs
// a display and how to run headless, and exits with status 2 (never Qt's raw lines and an abort).
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {

struct Run {
  int exitCode = -1;
  bool crashed = false;
  QString err;
  QString out;
};

Run runApp(const QProcessEnvironment& env) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(ROPESCOPE_BINARY), {});
  EXPECT_TRUE(p.waitForStarted(-1));
  EXPECT_TRUE(p.waitForFinished(-1));  // no ceiling: ctest's TIMEOUT guards a hang
  Run r;
  r.crashed = p.exitStatus() == QProcess::CrashExit;
  r.exitCode = p.exitCode();
  r.err = QString::fromUtf8(p.readAllStandardError());
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  return r;
}

QProcessEnvironment withoutDisplay() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
    env.remove(QLatin1String(name));
  return env;
}

void expectOneLineExit2(const Run& r, const QString& reason) {
  EXPECT_FALSE(r.crashed) << r.err.toStdString();
  EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
  EXPECT_EQ(r.err.count(QLatin1Char('\n')), 1) << "not one line:\n" << r.err.toStdString();
  EXPECT_TRUE(r.err.startsWith(QStringLiteral("ropescope: the desktop app needs a display")))
      << r.err.toStdString();
  EXPECT_TRUE(r.err.contains(reason)) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains(QStringLiteral("xvfb-run -a ropescope"))) << r.err.toStdString();
  EXPECT_TRUE(r.out.isEmpty()) << r.out.toStdString();
}

TEST(NoDisplay, WithoutAnyDisplayOneLineAndExitTwo) {
  expectOneLineExit2(runApp(withoutDisplay()),
                     QStringLiteral("neither DISPLAY nor WAYLAND_DISPLAY is set"));
}

TEST(NoDisplay, AnXDisplayThatDoesNotAnswerIsOneLineAndExitTwo) {
  QProcessEnvironment env = withoutDisplay();
  env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":59999"));  // no such server
  expectOneLineExit2(runApp(env), QStringLiteral("cannot open the X display :59999"));
}

TEST(NoDisplay, APlatformWithoutOpenGlViewsIsOneLineAndExitTwo) {
  QProcessEnvironment env = withoutDisplay();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  expectOneLineExit2(runApp(env), QStringLiteral("\"offscreen\" cannot show OpenGL views"));
}

// img:castle.png names the shipped sample for the command line too (a scene
// the app saved opens there), from a folder without a castle.png of its own.
TEST(SampleByName, TheCommandLineReadsTheShippedSample) {
  QTemporaryDir empty;
  QProcess p;
  p.setWorkingDirectory(empty.path());
  p.start(QStringLiteral(ROPESCOPE_BINARY),
          {QStringLiteral("ids"), QStringLiteral("--layout"), QStringLiteral("t2,img:castle.png"),
           QStringLiteral("--format"), QStringLiteral("csv")});
  ASSERT_TRUE(p.waitForFinished(-1));
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  // A header and one row per token: 2 text + 9 x 11 patches.
  EXPECT_EQ(p.readAllStandardOutput().count('\n'), 1 + 2 + 99);
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
