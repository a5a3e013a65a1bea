// A long-context scene in the window: a 1M-token scene file opens with its ids in the 3-D view
// while its bias spread and every-design charts still compute, the status bar shows their
// progress with a Cancel button, and Esc cancels them (their jobs end asked to stop; the values
// read "not computed: cancelled"). Waits are on events and the model's state, never on time.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <semaphore>

#include "gui_test_util.h"
#include "image_compare.h"
#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "ropescope/progress.h"
#include "ropescope/scene.h"
#include "shell/background_progress.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

TEST(HugeScene, AMillionTokenFileShowsItsIdsFirstAndEscCancelsTheRest) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  Scene big = fixedScene();
  big.layout = parseLayoutSpec("t1000,v1000x32x32,t1000");
  big.design = "mrope";
  big.designParams = {};
  const QString path = dir.filePath(QStringLiteral("long1m.json"));
  saveSceneFile(big, path.toStdString());

  MainWindow w;
  showAndSettle(&w);
  w.activateWindow();  // Esc is a shortcut of the active window
  ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
  SceneModel* model = w.model();
  BackgroundProgress* progress = w.backgroundProgress();
  progress->showAtOnce(true);
  // The spread waits until the ids are seen; the comparison waits throughout.
  model->biasWorker()->setHeld(true);
  model->summaryWorker()->setHeld(true);
  std::binary_semaphore biasEnded{0};
  std::atomic<bool> biasStopped{false};
  model->biasWorker()->setJobEndHook([&](bool stopped) {
    biasStopped = stopped;
    biasEnded.release();
  });
  std::binary_semaphore biasStarted{0};
  model->biasWorker()->setJobStartHook([&] { biasStarted.release(); });

  QElapsedTimer clock;
  clock.start();
  ASSERT_TRUE(w.openFile(path));
  EXPECT_TRUE(model->computing());  // the window is free while the ids are computed
  EXPECT_TRUE(progress->isVisible());
  EXPECT_TRUE(progress->cancelButton()->isEnabled());
  ASSERT_TRUE(waitUntil([&] { return !model->computing(); }));
  QCoreApplication::sendPostedEvents();
  QCoreApplication::processEvents();  // the 3-D view's frame of the new ids
  // Reported, not asserted (a loaded machine is slower): docs/dev/performance.md has the figure.
  std::printf("[ huge ] 1,026,000 tokens: ids shown %lld ms after the file was opened\n",
              static_cast<long long>(clock.elapsed()));
  EXPECT_FALSE(model->isStale());
  // The ids are drawn while the spread and the charts are still to come.
  EXPECT_EQ(w.spaceView()->ids().size(), 1026000u);
  EXPECT_TRUE(model->biasPending());
  EXPECT_TRUE(model->summariesPending());
  EXPECT_TRUE(progress->isVisible());
  EXPECT_TRUE(progress->taskText().startsWith(QStringLiteral("bias spread")))
      << progress->taskText().toStdString();
  EXPECT_EQ(progress->bar()->value(), 0);
  EXPECT_NE(w.statusText().indexOf(QStringLiteral("bias spread computing")), -1)
      << w.statusText().toStdString();

  // The spread starts; Esc cancels it and the comparison.
  model->biasWorker()->setHeld(false);
  biasStarted.acquire();
  QTest::keyClick(&w, Qt::Key_Escape);
  biasEnded.acquire();
  EXPECT_TRUE(biasStopped.load());
  EXPECT_FALSE(model->backgroundBusy());
  EXPECT_FALSE(progress->isVisible());
  EXPECT_FALSE(progress->cancelButton()->isEnabled());
  EXPECT_EQ(model->metrics().bias.undefinedReason, kCancelledReason);
  EXPECT_NE(w.statusText().indexOf(QString::fromLatin1(kCancelledReason)), -1)
      << w.statusText().toStdString();
  for (const DesignSummary& d : model->designSummaries())
    EXPECT_EQ(d.biasUndefined, kCancelledReason) << d.design;
  model->summaryWorker()->setHeld(false);

  // The next edit computes again: a small scene, whole at once.
  model->setScene(fixedScene());
  ASSERT_TRUE(model->waitForMetrics(kHangGuardMs));
  EXPECT_FALSE(std::isnan(model->metrics().bias.spread));
}
