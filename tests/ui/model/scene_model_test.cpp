// SceneModel logic without a display: recompute on edit, last-valid scene on bad input,
// problem fields, and the linked token selection.
#include <gtest/gtest.h>

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <atomic>
#include <cmath>
#include <memory>
#include <semaphore>
#include <string>
#include <vector>

#include "gui_test_util.h"
#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"

using ropescope::Scene;
using ropescope::ui::SceneModel;
using ropescope::ui::test::kHangGuardMs;
using ropescope::ui::test::waitUntil;

namespace {

Scene circleScene() {
  Scene s = ropescope::defaultScene();
  s.layout = ropescope::parseLayoutSpec("t4,i3x3,t5");
  s.design = "circle";
  s.designParams = {};
  s.selectedText = 0;
  return s;
}

}  // namespace

TEST(SceneModel, DefaultSceneComputesAtConstruction) {
  SceneModel model;
  EXPECT_FALSE(model.isStale());
  EXPECT_EQ(model.metrics().ids.size(), model.scene().layout.tokenCount());
  EXPECT_FALSE(model.designSummaries().empty());
}

TEST(SceneModel, EditRecomputesAndEmitsOnce) {
  SceneModel model;
  model.setScene(circleScene());
  QSignalSpy changed(&model, &SceneModel::changed);
  model.edit([](Scene& s) { s.design = "hard"; });
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(model.validScene().design, "hard");
  // Hard embedding of a 3x3 image between text runs: PTD is far from 0 (circle gives 0).
  EXPECT_GT(model.metrics().ptd.ptd, 0.5);
  EXPECT_EQ(model.metrics().ids.size(), 18u);
}

TEST(SceneModel, NoOpEditDoesNotEmit) {
  SceneModel model;
  model.setScene(circleScene());
  QSignalSpy changed(&model, &SceneModel::changed);
  model.setScene(circleScene());
  model.edit([](Scene&) {});
  EXPECT_EQ(changed.count(), 0);
}

TEST(SceneModel, InvalidParameterKeepsLastValidSceneAndNamesTheField) {
  SceneModel model;
  model.setScene(circleScene());
  const double ptdBefore = model.metrics().ptd.ptd;
  const auto idsBefore = model.metrics().ids.ids;
  model.edit([](Scene& s) { s.designParams.set("alpha", 2.0); });
  ASSERT_TRUE(model.isStale());
  EXPECT_EQ(model.problem()->field, QStringLiteral("alpha"));
  EXPECT_FALSE(model.problem()->message.isEmpty());
  // The edited value stays visible to the panel; the views keep the last valid scene.
  EXPECT_EQ(model.scene().designParams.find("alpha").value_or(-1), 2.0);
  EXPECT_FALSE(model.validScene().designParams.find("alpha").has_value());
  EXPECT_DOUBLE_EQ(model.metrics().ptd.ptd, ptdBefore);
  EXPECT_EQ(model.metrics().ids.ids, idsBefore);
}

TEST(SceneModel, FixingTheInputClearsTheProblem) {
  SceneModel model;
  model.setScene(circleScene());
  model.edit([](Scene& s) { s.designParams.set("alpha", -1.0); });
  ASSERT_TRUE(model.isStale());
  model.edit([](Scene& s) { s.designParams.set("alpha", 0.25); });
  EXPECT_FALSE(model.isStale());
  EXPECT_EQ(model.validScene().designParams.find("alpha").value_or(-1), 0.25);
}

TEST(SceneModel, BadFrequencyAndLayoutNameTheirFields) {
  SceneModel model;
  model.setScene(circleScene());
  model.edit([](Scene& s) { s.frequency.rotary.base = 0.5; });
  ASSERT_TRUE(model.isStale());
  EXPECT_EQ(model.problem()->field, QStringLiteral("base"));
  model.setScene(circleScene());
  model.edit([](Scene& s) { s.layout.segments.clear(); });
  ASSERT_TRUE(model.isStale());
  EXPECT_EQ(model.problem()->field, QStringLiteral("layout"));
  EXPECT_EQ(model.metrics().ids.size(), 18u);
}

TEST(SceneModel, ReportedProblemMarksStaleUntilTheNextValidEdit) {
  SceneModel model;
  model.setScene(circleScene());
  QSignalSpy changed(&model, &SceneModel::changed);
  model.reportProblem({QStringLiteral("bad spec"), QStringLiteral("layout")});
  EXPECT_TRUE(model.isStale());
  EXPECT_EQ(changed.count(), 1);
  model.edit([](Scene& s) { s.designParams.set("alpha", 0.75); });
  EXPECT_FALSE(model.isStale());
}

TEST(SceneModel, SelectedTextMovesTheProfile) {
  SceneModel model;
  model.setScene(circleScene());
  const long first = model.metrics().selectedToken;
  model.setSelectedText(4);  // the first token of the second text run
  EXPECT_EQ(model.scene().selectedText, 4);
  EXPECT_NE(model.metrics().selectedToken, first);
  EXPECT_EQ(model.metrics().selectedToken, 13);  // t4 + 9 visual tokens, then index 0 of t5
}

TEST(SceneModel, SelectedVisualIsClampedAndSignalled) {
  SceneModel model;
  model.setScene(circleScene());
  QSignalSpy selection(&model, &SceneModel::selectionChanged);
  model.setSelectedVisual(4);
  EXPECT_EQ(model.selectedVisual(), 4);
  EXPECT_EQ(selection.count(), 1);
  model.setSelectedVisual(9);  // only 9 visual tokens: 0..8
  EXPECT_EQ(model.selectedVisual(), -1);
  model.setSelectedVisual(8);
  // A layout with fewer visual tokens drops a selection that no longer exists.
  model.edit([](Scene& s) { s.layout = ropescope::parseLayoutSpec("t4,i2x2,t5"); });
  EXPECT_EQ(model.selectedVisual(), -1);
}

// The ui compares scenes with Scene::operator== (unsaved-changes flag, skipping no-op edits);
// the field-by-field copy it replaced missed the image grid settings.
TEST(SceneEquality, SeesEveryField) {
  const Scene a = circleScene();
  Scene b = a;
  EXPECT_TRUE(a == b);
  b.frequency.rotary.base = 1e4;
  EXPECT_FALSE(a == b);
  b = a;
  b.frequency.sections = {16, 24, 24};
  EXPECT_FALSE(a == b);
  b = a;
  b.ageLayer = 3;
  EXPECT_FALSE(a == b);
  b = a;
  b.imageGrid = ropescope::imageGridPreset("qwen3-vl");
  EXPECT_FALSE(a == b);
}

TEST(SceneModel, LargeScenesCompareDesignsOnceEditsSettle) {
  SceneModel model;
  Scene big = circleScene();
  big.layout = ropescope::parseLayoutSpec("t64,i62x64,t64");  // 4096 tokens
  model.setScene(big);
  ASSERT_FALSE(model.isStale());
  QSignalSpy summaries(&model, &SceneModel::summariesChanged);
  // Whether the comparison waits depends on this machine's speed; either way the model must say
  // which, and a flush must deliver summaries of the current scene.
  EXPECT_EQ(model.summariesPending(), model.computeMilliseconds() >= 8.0);
  const bool wasPending = model.summariesPending();
  model.flushSummaries();
  EXPECT_FALSE(model.summariesPending());
  EXPECT_EQ(summaries.count(), wasPending ? 1 : 0);
  ASSERT_FALSE(model.designSummaries().empty());
  bool sawCircle = false;
  for (const auto& d : model.designSummaries()) {
    if (d.design != "circle") continue;
    sawCircle = true;
    EXPECT_NEAR(d.ptd, model.metrics().ptd.ptd, 1e-9);
  }
  EXPECT_TRUE(sawCircle);
}

TEST(SceneModel, AgeLayerShowsTheIdsThatLayerUses) {
  SceneModel model;
  Scene s = circleScene();
  s.age.layers = 4;
  s.age.strategy = ropescope::AgeStrategy::Alternate;  // layer 0 circle, layer 1 M-RoPE, ...
  model.setScene(s);
  const auto circleIds = model.metrics().ids.ids;
  model.edit([](Scene& sc) { sc.ageLayer = 1; });
  ASSERT_FALSE(model.isStale());
  EXPECT_EQ(model.metrics().designUsed, "mrope");
  EXPECT_NE(model.metrics().ids.ids, circleIds);
  model.edit([](Scene& sc) { sc.ageLayer = 2; });
  EXPECT_EQ(model.metrics().designUsed, "circle");
  EXPECT_EQ(model.metrics().ids.ids, circleIds);
  // A layer outside the schedule is refused and named.
  model.edit([](Scene& sc) { sc.ageLayer = 9; });
  ASSERT_TRUE(model.isStale());
  EXPECT_EQ(model.problem()->field, QStringLiteral("age_layer"));
}

namespace {

Scene biggerScene(const char* spec) {
  Scene s = circleScene();
  s.layout = ropescope::parseLayoutSpec(spec);
  return s;
}

void expectSummariesOf(const SceneModel& model, const Scene& scene) {
  const auto want = ropescope::compareDesigns(scene, 1);
  const auto& got = model.designSummaries();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].design, want[i].design);
    EXPECT_EQ(got[i].ptd, want[i].ptd) << want[i].design;  // thread count does not matter
    EXPECT_EQ(got[i].biasSpread, want[i].biasSpread) << want[i].design;
  }
}

}  // namespace

// The comparison of a slow scene runs on the worker's thread: the event loop goes on while it
// waits or runs, and what arrives is the comparison of the scene shown.
TEST(SceneModel, SlowScenesCompareDesignsInTheBackground) {
  SceneModel model;
  // The first scene was compared at once, however long it took to compute: no request yet (one
  // here made the counts below depend on this machine's speed, and the test wait forever).
  EXPECT_EQ(model.summaryWorker()->requested(), 0);
  EXPECT_FALSE(model.summariesPending());
  EXPECT_FALSE(model.designSummaries().empty());
  model.setSynchronousSummaryLimit(0);
  model.summaryWorker()->setHeld(true);
  QSignalSpy summaries(&model, &SceneModel::summariesChanged);
  const Scene a = biggerScene("t20,i12x14,t9");
  model.setScene(a);
  ASSERT_FALSE(model.isStale());
  EXPECT_TRUE(model.summariesPending());
  // Past the pause for edits the request reaches the worker, where it waits (held).
  ASSERT_TRUE(waitUntil([&] { return model.summaryWorker()->requested() == 1; }));
  EXPECT_TRUE(model.summariesPending());
  EXPECT_EQ(model.summaryWorker()->started(), 0);
  EXPECT_EQ(summaries.count(), 0);
  model.summaryWorker()->setHeld(false);
  ASSERT_TRUE(waitUntil([&] { return !model.summariesPending(); }));
  EXPECT_EQ(summaries.count(), 1);
  EXPECT_EQ(model.summaryWorker()->started(), 1);
  expectSummariesOf(model, a);
}

// An edit before the comparison starts replaces it: the older scene is never compared, and its
// numbers never reach the charts.
TEST(SceneModel, AnEditReplacesAWaitingComparison) {
  SceneModel model;
  model.setSynchronousSummaryLimit(0);
  model.summaryWorker()->setHeld(true);
  model.setScene(biggerScene("t20,i12x14,t9"));
  ASSERT_TRUE(waitUntil([&] { return model.summaryWorker()->requested() == 1; }));
  const Scene b = biggerScene("t7,i9x9,t30");
  model.setScene(b);
  ASSERT_TRUE(waitUntil([&] { return model.summaryWorker()->requested() == 2; }));
  model.summaryWorker()->setHeld(false);
  ASSERT_TRUE(waitUntil([&] { return !model.summariesPending(); }));
  // The second request replaced the first while it waited: one comparison ran, of b.
  EXPECT_EQ(model.summaryWorker()->requested(), 2);
  EXPECT_EQ(model.summaryWorker()->started(), 1);
  expectSummariesOf(model, b);
  // An invalid edit keeps the last valid scene's comparison.
  Scene bad = b;
  bad.frequency.rotary.base = 0.5;
  model.setScene(bad);
  EXPECT_TRUE(model.isStale());
  EXPECT_FALSE(model.summariesPending());
  expectSummariesOf(model, b);
}

// A flush (tests, figure export) computes at once, and the background comparison of the same
// scene, already running, changes nothing when it ends; the model can be destroyed while a
// comparison runs.
TEST(SceneModel, FlushWinsOverTheBackgroundAndDestroyingStopsIt) {
  // Kept outside the model: what its summary worker's jobs did, seen after the model is gone.
  auto ended = std::make_shared<std::atomic<int>>(0);
  std::binary_semaphore atStart{0}, letGo{0};
  std::atomic<int> starts{0};
  int started = 0;
  {
    SceneModel model;
    model.summaryWorker()->setJobEndHook([ended](bool) { ++*ended; });
    // The first comparison is held as it starts, until the flush has been made.
    model.summaryWorker()->setJobStartHook([&] {
      if (starts++ == 0) {
        atStart.release();
        letGo.acquire();
      }
    });
    model.setSynchronousSummaryLimit(0);
    const Scene a = biggerScene("t20,i12x14,t9");
    model.setScene(a);
    ASSERT_TRUE(waitUntil([&] { return atStart.try_acquire(); }));  // running on the worker
    QSignalSpy spy(&model, &SceneModel::summariesChanged);
    model.flushSummaries();
    EXPECT_FALSE(model.summariesPending());
    expectSummariesOf(model, a);
    EXPECT_EQ(spy.count(), 1);
    letGo.release();
    ASSERT_TRUE(waitUntil([&] { return ended->load() == 1; }));
    QCoreApplication::processEvents();  // whatever the job posted is delivered by now
    EXPECT_EQ(spy.count(), 1) << "the background comparison came after the flush and was shown";
    expectSummariesOf(model, a);
    // A slow comparison running when the model goes.
    model.setScene(biggerScene("t400,i60x60"));
    ASSERT_TRUE(waitUntil([&] { return model.summaryWorker()->started() > 1; }));
    started = model.summaryWorker()->started();
  }
  // The destructor stopped and joined the worker: every job it started has ended, none runs on.
  EXPECT_EQ(started, 2);
  EXPECT_EQ(ended->load(), started);
  // The slow comparison posted its result to the model, if it got that far: Qt drops calls
  // queued for a deleted object (under ASan, a delivery to it would be a use after free).
  QCoreApplication::processEvents();
}

// The metrics of a scene with many text x visual pairs are computed in the background: the model
// keeps the last valid scene (not stale) until they arrive, an edit replaces a waiting
// computation, and input errors are still refused at once.
TEST(SceneModel, LargeScenesComputeTheirMetricsInTheBackground) {
  SceneModel model;
  model.setBackgroundPairs(100);
  ropescope::ui::LatestWorker* worker = model.metricsWorker();
  worker->setHeld(true);
  const int startedFirst = worker->started();
  const Scene before = model.validScene();
  QSignalSpy changed(&model, &SceneModel::changed);
  const Scene a = biggerScene("t20,i12x14,t9");
  model.setScene(a);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_TRUE(model.computing());
  EXPECT_FALSE(model.isStale());
  EXPECT_TRUE(model.validScene() == before);
  EXPECT_TRUE(model.scene() == a);
  QCoreApplication::processEvents();
  EXPECT_TRUE(model.computing());  // held
  EXPECT_EQ(worker->started(), startedFirst);
  worker->setHeld(false);
  ASSERT_TRUE(model.waitForMetrics(kHangGuardMs));
  EXPECT_EQ(changed.count(), 2);
  EXPECT_TRUE(model.validScene() == a);
  const ropescope::SceneMetrics fresh = ropescope::computeSceneMetrics(a, 256, 1);
  EXPECT_EQ(model.metrics().ids.ids, fresh.ids.ids);
  EXPECT_EQ(model.metrics().ptd.ptd, fresh.ptd.ptd);
  EXPECT_EQ(model.metrics().bias.spread, fresh.bias.spread);
  EXPECT_EQ(model.metrics().selectedDistance, fresh.selectedDistance);

  // Two edits while held: only the second is computed.
  worker->setHeld(true);
  const int started = worker->started();
  const int requested = worker->requested();
  model.setScene(biggerScene("t7,i9x9,t30"));
  const Scene c = biggerScene("t9,i9x10,t31");
  model.setScene(c);
  worker->setHeld(false);
  ASSERT_TRUE(model.waitForMetrics(kHangGuardMs));
  EXPECT_EQ(worker->requested(), requested + 2);
  EXPECT_EQ(worker->started(), started + 1);
  EXPECT_TRUE(model.validScene() == c);
  EXPECT_EQ(model.metrics().ids.size(), c.layout.tokenCount());

  // A bad value in a large scene is refused at once, beside its field.
  Scene bad = biggerScene("t20,i12x14,t10");
  bad.frequency.rotary.base = 0.5;
  model.setScene(bad);
  EXPECT_FALSE(model.computing());
  EXPECT_TRUE(model.isStale());
  EXPECT_EQ(model.problem()->field, QStringLiteral("base"));
  EXPECT_TRUE(model.validScene() == c);

  // A problem the ui reports replaces an edit still computing: its metrics never arrive.
  worker->setHeld(true);
  model.setScene(biggerScene("t21,i12x14,t9"));
  EXPECT_TRUE(model.computing());
  model.reportProblem({QStringLiteral("layout: typed nonsense"), QStringLiteral("layout")});
  EXPECT_FALSE(model.computing());
  EXPECT_FALSE(worker->busy());  // the waiting job was dropped: nothing is left to run
  const int startedBeforeRelease = worker->started();
  worker->setHeld(false);
  QCoreApplication::processEvents();
  EXPECT_EQ(worker->started(), startedBeforeRelease);
  EXPECT_TRUE(model.isStale());
  EXPECT_TRUE(model.validScene() == c);
}

// the model says what changed. A selection click is a change of the selection
// only: the profiles are updated in place, neither the full metrics nor the design comparison
// run, and the views are told which part changed.
TEST(SceneModel, SelectionClickRecomputesOnlyTheSelection) {
  SceneModel model;
  const Scene a = biggerScene("t20,i12x14,t9");
  model.setScene(a);
  model.flushSummaries();
  const int full = model.fullComputations(), comparisons = model.comparisons();
  const int started = model.summaryWorker()->started();
  QSignalSpy changed(&model, &SceneModel::changed);
  model.setSelectedText(21);
  ASSERT_EQ(changed.count(), 1);
  EXPECT_EQ(changed.at(0).at(0).value<ropescope::SceneChanges>(),
            ropescope::SceneChanges(ropescope::ScenePart::Selection));
  EXPECT_EQ(model.fullComputations(), full);
  EXPECT_EQ(model.comparisons(), comparisons);
  EXPECT_EQ(model.summaryWorker()->started(), started);
  EXPECT_FALSE(model.summariesPending());
  Scene b = a;
  b.selectedText = 21;
  EXPECT_TRUE(model.validScene() == b);
  const ropescope::SceneMetrics fresh = ropescope::computeSceneMetrics(b, 256, 1);
  EXPECT_EQ(model.metrics().selectedToken, fresh.selectedToken);
  EXPECT_EQ(model.metrics().selectedDistance, fresh.selectedDistance);
  EXPECT_EQ(model.metrics().selectedBias, fresh.selectedBias);
  expectSummariesOf(model, b);
  // An edit of the ids is computed whole and compares the designs again.
  changed.clear();
  model.edit([](Scene& s) { s.design = "hard"; });
  ASSERT_EQ(changed.count(), 1);
  EXPECT_TRUE(
      changed.at(0).at(0).value<ropescope::SceneChanges>().touches(ropescope::ScenePart::Design));
  EXPECT_EQ(model.fullComputations(), full + 1);
  EXPECT_TRUE(model.comparisons() > comparisons || model.summariesPending());
}

// A scene large enough for the background: a selection click is still answered at once, on
// this thread, without a background job.
TEST(SceneModel, SelectionClickOnALargeSceneNeedsNoBackgroundJob) {
  SceneModel model;
  model.setBackgroundPairs(100);
  const Scene a = biggerScene("t20,i12x14,t9");
  model.setScene(a);
  ASSERT_TRUE(model.waitForMetrics(kHangGuardMs));
  const int jobs = model.metricsWorker()->started();
  model.setSelectedText(5);
  EXPECT_FALSE(model.computing());
  EXPECT_EQ(model.metricsWorker()->started(), jobs);
  EXPECT_EQ(model.validScene().selectedText, 5);
  Scene b = a;
  b.selectedText = 5;
  EXPECT_EQ(model.metrics().selectedBias, ropescope::computeSceneMetrics(b, 256, 1).selectedBias);
}

// A refused edit changes no part of the shown scene: the views are told so (an empty set).
TEST(SceneModel, ARefusedEditChangesNoShownPart) {
  SceneModel model;
  model.setScene(circleScene());
  QSignalSpy changed(&model, &SceneModel::changed);
  model.edit([](Scene& s) { s.frequency.rotary.base = 0.5; });
  ASSERT_EQ(changed.count(), 1);
  EXPECT_TRUE(changed.at(0).at(0).value<ropescope::SceneChanges>().empty());
  EXPECT_TRUE(model.isStale());
}

namespace {

void expectBiasOf(const SceneModel& model, const Scene& scene) {
  const ropescope::BiasResult want = ropescope::computeSceneMetrics(scene, 256, 1).bias;
  EXPECT_FALSE(model.biasPending());
  EXPECT_EQ(model.metrics().bias.spread, want.spread);  // bit for bit
  EXPECT_EQ(model.metrics().bias.perText, want.perText);
  EXPECT_EQ(model.metrics().bias.undefinedReason, want.undefinedReason);
}

}  // namespace

// a mid-size scene shows every result but its bias spread at once, and the
// spread follows from a worker (the α drag's 3-D view does not wait for 4 million pairs). A
// selection click and a refused edit leave the coming spread alone; it arrives with its own
// signal, not as a change of the scene.
TEST(SceneModel, AMidSizeSceneShowsItsIdsBeforeItsBiasSpread) {
  SceneModel model;
  model.setIdsFirstPairs(100);
  ropescope::ui::LatestWorker* worker = model.biasWorker();
  worker->setHeld(true);
  QSignalSpy changed(&model, &SceneModel::changed);
  QSignalSpy bias(&model, &SceneModel::biasChanged);
  const Scene a = biggerScene("t20,i12x14,t9");  // 29 x 168 pairs
  model.setScene(a);
  ASSERT_EQ(changed.count(), 1);
  EXPECT_FALSE(model.computing());
  EXPECT_FALSE(model.isStale());
  EXPECT_TRUE(model.validScene() == a);
  EXPECT_TRUE(model.biasPending());
  EXPECT_TRUE(std::isnan(model.metrics().bias.spread));  // no number before it is computed
  const ropescope::SceneMetrics fresh = ropescope::computeSceneMetrics(a, 256, 1);
  EXPECT_EQ(model.metrics().ids.ids, fresh.ids.ids);
  EXPECT_EQ(model.metrics().ptd.ptd, fresh.ptd.ptd);
  EXPECT_EQ(model.metrics().selectedBias, fresh.selectedBias);
  EXPECT_EQ(model.metrics().decayAxis[0], fresh.decayAxis[0]);
  // The comparison costs several bias spreads: it waits for the edits to pause as well.
  EXPECT_TRUE(model.summariesPending());

  const int requested = worker->requested();
  model.setSelectedText(3);
  EXPECT_TRUE(model.biasPending());
  EXPECT_EQ(model.metrics().selectedBias,
            ropescope::computeSceneMetrics(model.validScene(), 256, 1).selectedBias);
  model.edit([](Scene& s) { s.frequency.rotary.base = 0.5; });
  EXPECT_TRUE(model.isStale());
  EXPECT_TRUE(model.biasPending());
  EXPECT_EQ(worker->requested(), requested);  // neither asked for another spread
  EXPECT_TRUE(worker->busy());                // nor dropped the one waiting

  // The spread's time is added to the scene's (the click's update set it last): compared with
  // the figure just before, not with the first scene's, whose own time depends on the machine.
  const double beforeSpreadMs = model.computeMilliseconds();
  worker->setHeld(false);
  ASSERT_TRUE(model.waitForMetrics(kHangGuardMs));
  EXPECT_EQ(bias.count(), 1);
  EXPECT_EQ(changed.count(), 3);  // the click and the refusal only
  expectBiasOf(model, model.validScene());
  EXPECT_GT(model.computeMilliseconds(), beforeSpreadMs);
  EXPECT_TRUE(model.isStale());  // the refused edit is still the user's
}

// A newer scene drops the spread of the one before: only the newest spread is computed and
// shown, never an older scene's beside newer ids.
TEST(SceneModel, ANewerSceneDropsTheSpreadComingForTheOlder) {
  SceneModel model;
  model.setIdsFirstPairs(100);
  ropescope::ui::LatestWorker* worker = model.biasWorker();
  worker->setHeld(true);
  QSignalSpy bias(&model, &SceneModel::biasChanged);
  const int started = worker->started();
  model.setScene(biggerScene("t20,i12x14,t9"));
  Scene b = biggerScene("t20,i12x14,t9");
  b.designParams.set("alpha", 0.25);
  model.setScene(b);
  EXPECT_TRUE(model.biasPending());
  worker->setHeld(false);
  ASSERT_TRUE(model.waitForMetrics(kHangGuardMs));
  EXPECT_EQ(worker->started(), started + 1);
  EXPECT_EQ(bias.count(), 1);
  expectBiasOf(model, b);

  // A small scene's (81 pairs) spread is computed at once again: nothing pending, no job.
  model.setScene(circleScene());
  EXPECT_FALSE(model.biasPending());
  EXPECT_EQ(worker->started(), started + 1);
  expectBiasOf(model, circleScene());
}

// A model destroyed while its spread waits or runs ends without it (and without a hang).
TEST(SceneModel, DestroyingTheModelDropsTheComingSpread) {
  for (bool held : {true, false}) {
    auto model = std::make_unique<SceneModel>();
    model->setIdsFirstPairs(100);
    model->biasWorker()->setHeld(held);
    model->setScene(biggerScene("t20,i12x14,t9"));
    EXPECT_TRUE(model->biasPending());
    model.reset();
    QCoreApplication::processEvents();  // a spread posted meanwhile is not delivered
  }
}

// A design the user comes back to has the parameters it had when left: switching to MCA and
// back kept none of Circle-RoPE's tuned alpha and beta. A design never chosen starts at its
// defaults; the chart's way in keeps the frequency plan, the design box's sets the design's own.
TEST(SceneModel, ADesignChosenAgainHasTheParametersItWasLeftWith) {
  SceneModel model;
  Scene tuned = circleScene();
  tuned.designParams.set("alpha", 0.3);
  tuned.designParams.set("dff", 0.5);
  model.setScene(tuned);
  ASSERT_FALSE(model.isStale());
  model.chooseDesign("mca", true);
  EXPECT_EQ(model.scene().design, "mca");
  EXPECT_TRUE(model.scene().designParams == ropescope::ParameterSet{});  // never chosen before
  model.chooseDesign("circle", true);
  EXPECT_TRUE(model.validScene() == tuned);
  EXPECT_EQ(model.metrics().ptd.ptd, ropescope::computeSceneMetrics(tuned, 256, 1).ptd.ptd);
  EXPECT_NE(model.metrics().ptd.ptd, ropescope::computeSceneMetrics(circleScene(), 256, 1).ptd.ptd);
  // Choosing the shown design again changes nothing.
  model.chooseDesign("circle", true);
  EXPECT_TRUE(model.validScene() == tuned);

  // The charts' way: the plan stays, the parameters come back the same.
  Scene vanilla = tuned;
  vanilla.frequency.plan = "vanilla";
  vanilla.frequency.sections.clear();
  model.setScene(vanilla);
  ASSERT_FALSE(model.isStale());
  model.chooseDesign("hard", false);
  EXPECT_EQ(model.scene().frequency.plan, "vanilla");
  model.chooseDesign("circle", false);
  EXPECT_TRUE(model.validScene() == vanilla);
}

// The design box's way to a model family brings the family's picture grid with its rotary
// (Qwen3-VL's 32-px tokens, not Qwen2.5-VL's 28), for every family; a picture that grid refuses
// is said beside the box and the scene stays as it was.
TEST(SceneModel, AFamilyChosenInTheDesignBoxBringsItsPictureGrid) {
  const std::string castle = std::string(ROPESCOPE_SAMPLES) + "/castle.png";
  SceneModel model;
  Scene s = circleScene();
  s.layout.segments.push_back(ropescope::imageSegmentFromFile(castle, s.imageGrid));
  model.setScene(s);
  ASSERT_FALSE(model.isStale());
  for (const ropescope::ModelFamily* f : ropescope::allFamilies()) {
    model.chooseDesign(f->name(), true);
    EXPECT_EQ(model.scene().imageGrid, f->imageGrid()) << f->name();
    EXPECT_EQ(model.scene().layout.segments.back(),
              ropescope::imageSegmentFromFile(castle, f->imageGrid()))
        << f->name();
  }

  QTemporaryDir dir;
  const QString tiny = dir.filePath(QStringLiteral("tiny.png"));
  QImage(30, 30, QImage::Format_RGB32).save(tiny);  // under Qwen3-VL's 32 px, over 28
  Scene small = circleScene();
  small.layout.segments.push_back(ropescope::imageSegmentFromFile(tiny.toStdString(), {}));
  model.setScene(small);
  ASSERT_FALSE(model.isStale());
  model.chooseDesign("qwen3-vl", true);
  ASSERT_TRUE(model.problem().has_value());
  EXPECT_EQ(model.validScene().design, "circle");
  EXPECT_EQ(model.validScene().imageGrid, small.imageGrid);
}

// Edit → Undo / Redo: the model records each edit (scene_history.h), a gesture's edits (a dragged
// slider) as one step, a selection click as none, and undo and redo recompute the scene they go
// to.
TEST(SceneModel, UndoAndRedoWalkTheEdits) {
  SceneModel model;
  const Scene start = model.scene();
  EXPECT_FALSE(model.canUndo());
  QSignalSpy history(&model, &SceneModel::historyChanged);
  model.beginGesture();
  for (double alpha : {0.2, 0.3, 0.4})  // one dragged slider
    model.edit([alpha](Scene& s) { s.designParams.set("alpha", alpha); });
  model.endGesture();
  model.setSelectedText(1);
  model.edit([](Scene& s) { s.frequency.rotary.base = 20000; });
  EXPECT_GT(history.count(), 0);
  ASSERT_TRUE(model.canUndo());
  model.undo();
  EXPECT_EQ(model.scene().frequency.rotary.base, start.frequency.rotary.base);
  EXPECT_EQ(model.validScene().frequency.rotary.base, start.frequency.rotary.base);  // computed
  EXPECT_EQ(model.scene().designParams.find("alpha"), 0.4);
  model.undo();
  EXPECT_EQ(model.scene().designParams, start.designParams);
  EXPECT_FALSE(model.canUndo());
  ASSERT_TRUE(model.canRedo());
  model.redo();
  EXPECT_EQ(model.scene().designParams.find("alpha"), 0.4);
  model.redo();
  EXPECT_EQ(model.validScene().frequency.rotary.base, 20000);
  EXPECT_FALSE(model.canRedo());
  // Undoing is no edit of its own: the step undone is on the redo list, not the undo list.
  model.undo();
  EXPECT_TRUE(model.canRedo());
  model.clearHistory();
  EXPECT_FALSE(model.canUndo());
  EXPECT_FALSE(model.canRedo());
}

// Edits of one field committed one after another (ten layouts typed, each with Return) are a
// step each: they were one step, undone at once, and Redo jumped to the last. A gesture after
// them is one step of its own, not part of the last commit.
TEST(SceneModel, EachCommittedEditIsAStep) {
  SceneModel model;
  std::vector<Scene> states{model.scene()};
  for (int i = 1; i <= 10; ++i) {
    model.edit([i](Scene& s) {
      s.layout = ropescope::parseLayoutSpec("t" + std::to_string(i) + ",i2x2");
    });
    states.push_back(model.scene());
  }
  model.beginGesture();
  for (double alpha : {0.2, 0.3, 0.4})
    model.edit([alpha](Scene& s) { s.designParams.set("alpha", alpha); });
  model.endGesture();
  states.push_back(model.scene());
  for (std::size_t k = states.size() - 1; k-- > 0;) {
    ASSERT_TRUE(model.canUndo()) << "state " << k;
    model.undo();
    EXPECT_EQ(model.scene(), states[k]) << "undo to state " << k;
  }
  EXPECT_FALSE(model.canUndo());
  for (std::size_t k = 1; k < states.size(); ++k) {
    ASSERT_TRUE(model.canRedo()) << "state " << k;
    model.redo();
    EXPECT_EQ(model.scene(), states[k]) << "redo to state " << k;
  }
  EXPECT_FALSE(model.canRedo());
}

namespace {

// A long-context scene: 1000 frames of 32 x 32 between two runs of 1000 text tokens (1,026,000
// tokens, 2e9 text x visual pairs), under `design`.
Scene longContextScene(const char* spec, const char* design) {
  Scene s = ropescope::defaultScene();
  s.layout = ropescope::parseLayoutSpec(spec);
  s.design = design;
  s.designParams = {};
  s.selectedText = 0;
  return s;
}

}  // namespace

// A million-token scene opens: its ids, PTD and every other result but the bias spread come
// first; the spread, the every-design charts and the modality table follow in the background
// with their progress, and cancelling stops them (their jobs end asked to stop) and says so in
// their place, never as a number.
TEST(SceneModel, AMillionTokenSceneShowsItsIdsFirstAndCancelStopsTheRest) {
  SceneModel model;
  const Scene big = longContextScene("t1000,v1000x32x32,t1000", "mrope");
  model.biasWorker()->setHeld(true);
  model.summaryWorker()->setHeld(true);
  std::binary_semaphore biasEnded{0};
  std::atomic<bool> biasStopped{false};
  model.biasWorker()->setJobEndHook([&](bool stopped) {
    biasStopped = stopped;
    biasEnded.release();
  });
  std::binary_semaphore biasStarted{0};
  model.biasWorker()->setJobStartHook([&] { biasStarted.release(); });
  model.setScene(big);
  EXPECT_TRUE(model.computing());  // on the worker: the window is not held
  EXPECT_TRUE(model.backgroundBusy());
  EXPECT_EQ(model.backgroundProgress().task, QStringLiteral("computing the scene"));
  ASSERT_TRUE(waitUntil([&] { return !model.computing(); }));
  EXPECT_FALSE(model.isStale());
  EXPECT_TRUE(model.validScene() == big);
  EXPECT_EQ(model.metrics().ids.size(), 1026000u);
  EXPECT_EQ(model.metrics().ptd.nVisual, 1024000u);
  EXPECT_FALSE(std::isnan(model.metrics().ptd.ptd));
  EXPECT_TRUE(model.biasPending());
  EXPECT_TRUE(model.summariesPending());
  EXPECT_EQ(model.backgroundProgress().task, QStringLiteral("bias spread"));
  EXPECT_EQ(model.backgroundProgress().fraction, 0.0);

  // The spread starts (2e9 pairs: seconds on one thread), then the user cancels.
  QSignalSpy progress(&model, &SceneModel::progressChanged);
  model.biasWorker()->setHeld(false);
  biasStarted.acquire();
  model.cancelBackground();
  biasEnded.acquire();  // the job itself ended, not only its result dropped
  EXPECT_TRUE(biasStopped.load());
  EXPECT_FALSE(model.backgroundBusy());
  EXPECT_GE(progress.count(), 1);
  EXPECT_EQ(model.backgroundProgress().task, QString());
  EXPECT_FALSE(model.biasPending());
  EXPECT_TRUE(std::isnan(model.metrics().bias.spread));
  EXPECT_EQ(model.metrics().bias.undefinedReason, ropescope::kCancelledReason);
  ASSERT_FALSE(model.designSummaries().empty());
  for (const ropescope::DesignSummary& d : model.designSummaries()) {
    EXPECT_TRUE(std::isnan(d.biasSpread)) << d.design;
    EXPECT_EQ(d.biasUndefined, ropescope::kCancelledReason) << d.design;
  }
  ASSERT_FALSE(model.modalityMetrics().empty());
  for (const ropescope::ModalityPairMetrics& r : model.modalityMetrics())
    EXPECT_EQ(r.skipped, ropescope::kCancelledReason);
  model.summaryWorker()->setHeld(false);
  // A spread posted after the cancel is not delivered: still cancelled.
  QCoreApplication::processEvents();
  EXPECT_EQ(model.metrics().bias.undefinedReason, ropescope::kCancelledReason);
}

// An edit while a huge scene still computes stops the stale computation itself (core's
// Progress.cancel), and a 4M-token scene never holds the event loop: a zero timer fires while
// its metrics run.
TEST(SceneModel, AFourMillionTokenSceneLeavesTheEventLoopFree) {
  SceneModel model;
  model.biasWorker()->setHeld(true);
  model.summaryWorker()->setHeld(true);
  std::binary_semaphore metricsEnded{0};
  std::atomic<int> stoppedJobs{0};
  model.metricsWorker()->setJobEndHook([&](bool stopped) {
    if (stopped) ++stoppedJobs;
    metricsEnded.release();
  });
  // The first job waits at its start until the timer has been seen: nothing here is a race.
  std::binary_semaphore metricsStarted{0}, goOn{0};
  std::atomic<int> starts{0};
  model.metricsWorker()->setJobStartHook([&] {
    if (starts++ > 0) return;
    metricsStarted.release();
    goOn.acquire();
  });
  const Scene huge = longContextScene("t1000,v4000x32x32,t1000", "mrope");  // 4,098,000 tokens
  bool firedWhileComputing = false;
  QTimer::singleShot(0, &model, [&] { firedWhileComputing = model.computing(); });
  model.setScene(huge);
  metricsStarted.acquire();
  QCoreApplication::processEvents();  // the zero timer runs; the metrics are still the worker's
  EXPECT_TRUE(firedWhileComputing);
  goOn.release();
  // An edit replaces it: the running job is asked to stop and ends.
  const Scene next = longContextScene("t1000,v1000x32x32,t1000", "mrope");
  model.setScene(next);
  metricsEnded.acquire();
  EXPECT_EQ(stoppedJobs.load(), 1);
  ASSERT_TRUE(waitUntil([&] { return !model.computing(); }));
  EXPECT_TRUE(model.validScene() == next);
  EXPECT_EQ(model.metrics().ids.size(), 1026000u);
  model.cancelBackground();
  EXPECT_FALSE(model.backgroundBusy());
}
