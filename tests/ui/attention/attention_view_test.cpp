// The attention view as a user drives it: the heatmap's pixels are the core's pooled values
// through viridis, a text token's map is its row on the block's grid, stale work never lands,
// the backend is named in the status bar and a bad .npy is one line, not a crash.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>

#include "attention/attention_view.h"
#include "attention_settled.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "ropescope/attention.h"
#include "ropescope/npy.h"
#include "ropescope/position_ids.h"
#include "shell/main_window.h"
#include "style/viridis.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

struct Window {
  MainWindow w;
  AttentionView* view;
  explicit Window(const Scene& scene = fixedScene()) {
    w.setDarkPalette(true);
    w.model()->setScene(scene);
    w.resize(1400, 1000);
    view = w.attentionView();
    view->setBackendChoice(BackendChoice::Cpu);
    showAndSettle(&w);
    w.attentionDock()->show();
  }
};

Scene sceneWith(const char* layout) {
  Scene s = fixedScene();
  s.layout = parseLayoutSpec(layout);
  return s;
}

// A fresh computation of what the view should show, straight from core.
std::unique_ptr<AttentionBackend> freshBackend(const Scene& scene, const QkSourceSpec& source,
                                               bool causal) {
  auto backend = makeCpuAttentionBackend(1);
  backend->load(makeAttentionProblem(scene, source, causal));
  return backend;
}

void expectColorNear(QColor got, QColor want, const std::string& where) {
  EXPECT_LE(std::abs(got.red() - want.red()), 2) << where;
  EXPECT_LE(std::abs(got.green() - want.green()), 2) << where;
  EXPECT_LE(std::abs(got.blue() - want.blue()), 2) << where;
}

}  // namespace

TEST(Attention, HeatmapPixelsAreCorePooledValuesThroughViridis) {
  // 1620 tokens: a few hundred pixels a side, so the view asks for block means (block > 1).
  const Scene scene = sceneWith("t10,i40x40,t10");
  Window win(scene);
  AttentionView* v = win.view;
  v->setRandomQk(2, 5);
  v->setSoftmax(true);
  v->setLogScale(false);
  v->setHead(1);
  ASSERT_TRUE(attentionSettled(v));
  const AttentionResult& r = *v->shownResult();
  ASSERT_FALSE(r.request.exactRows);
  const int block = r.request.block;
  ASSERT_GT(block, 1);
  const std::size_t nb = (r.tokens + block - 1) / block;

  QkSourceSpec spec;
  spec.kind = QkSourceSpec::Kind::Random;
  spec.heads = 2;
  spec.seed = 5;
  auto core = freshBackend(scene, spec, false);
  std::vector<float> pooled(nb * nb);
  core->pooled(1, block, AttentionValue::Softmax, pooled.data());
  const auto [lo, hi] = std::minmax_element(pooled.begin(), pooled.end());

  ASSERT_EQ(v->heatmapImage().width(), static_cast<int>(nb));
  const QRectF rect = v->heatmapRect();
  for (auto [i, j] : {std::pair<std::size_t, std::size_t>{0, 0},
                      {3, nb - 2},
                      {nb / 2, nb / 2},
                      {nb - 1, 7},
                      {nb / 3, 2 * nb / 3}}) {
    const double value = pooled[i * nb + j];
    const QColor want = viridis((value - *lo) / (*hi - *lo));
    const std::string where = "block " + std::to_string(i) + "," + std::to_string(j);
    expectColorNear(v->heatmapImage().pixelColor(int(j), int(i)), want, where);
    const QPointF centre(rect.left() + (j + 0.5) * rect.width() / nb,
                         rect.top() + (i + 0.5) * rect.height() / nb);
    EXPECT_NEAR(v->valueAt(centre), value, 1e-6 * std::abs(value) + 1e-12) << where;
    EXPECT_TRUE(v->describeAt(centre).contains(QStringLiteral("mean of the")));
  }
  EXPECT_NEAR(v->colorMin(), *lo, 1e-12);
  EXPECT_NEAR(v->colorMax(), *hi, 1e-12);

  // Log colours (softmax's default): position = log(p / smallest p) / log(largest / smallest).
  v->setLogScale(true);
  ASSERT_TRUE(v->logScaleActive());
  ASSERT_GT(*lo, 0.0f);
  for (std::size_t k : {std::size_t{0}, nb * nb / 2 + 3, nb * nb - 1}) {
    const double t = std::log(double(pooled[k]) / *lo) / std::log(double(*hi) / *lo);
    expectColorNear(v->heatmapImage().pixelColor(int(k % nb), int(k / nb)), viridis(t),
                    "log, block " + std::to_string(k));
  }
}

TEST(Attention, ZoomedInShowsExactValuesAndTokenIdentities) {
  Window win;  // 48 tokens: one pixel block is one token
  AttentionView* v = win.view;
  v->setCausal(true);
  ASSERT_TRUE(attentionSettled(v));
  const AttentionResult& r = *v->shownResult();
  ASSERT_EQ(r.request.block, 1);
  QkSourceSpec spec;
  auto core = freshBackend(fixedScene(), spec, true);
  std::vector<float> row(r.tokens);
  core->rows(0, 20, 21, AttentionValue::Logits, row.data());
  const QRectF rect = v->heatmapRect();
  const double n = static_cast<double>(r.tokens);
  // Query 20 is an image token (t4 then 36 image tokens); key 2 is text; key 30 is masked.
  const QPointF at(rect.left() + 2.5 * rect.width() / n, rect.top() + 20.5 * rect.height() / n);
  EXPECT_NEAR(v->valueAt(at), row[2], 1e-5);
  const QString tip = v->describeAt(at);
  EXPECT_TRUE(tip.contains(QStringLiteral("query token 20 (image, segment 1, row 2, col 4)")))
      << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("key text token 2 (#2)"))) << tip.toStdString();
  // A text token after the image: its index among the text tokens (as the formulas and charts
  // name the selected one) and its place in the sequence; it read "text token 45 (text)".
  const QPointF after(rect.left() + 45.5 * rect.width() / n, rect.top() + 46.5 * rect.height() / n);
  const QString tip2 = v->describeAt(after);
  EXPECT_TRUE(tip2.contains(QStringLiteral("key text token 9 (#45)"))) << tip2.toStdString();
  EXPECT_TRUE(tip2.contains(QStringLiteral("query text token 10 (#46)"))) << tip2.toStdString();
  const QPointF masked(rect.left() + 30.5 * rect.width() / n, at.y());
  EXPECT_TRUE(std::isinf(v->valueAt(masked)));
  EXPECT_EQ(v->heatmapImage().pixelColor(30, 20), v->maskedColor());

  // On screen (several pixels per token here): each token's square has the colour of the core's
  // value through viridis over the finite range, masked ones grey.
  std::vector<float> all(r.tokens * r.tokens);
  core->pooled(0, 1, AttentionValue::Logits, all.data());
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float x : all)
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  const QImage canvas = v->heatmapCanvas()->grab().toImage();
  const double scale = canvas.width() / static_cast<double>(v->heatmapCanvas()->width());
  for (auto [i, j] : {std::pair<int, int>{0, 0}, {20, 2}, {20, 30}, {47, 47}, {40, 9}, {5, 3}}) {
    const float x = all[i * r.tokens + j];
    const QColor want = std::isfinite(x) ? viridis((x - lo) / (hi - lo)) : v->maskedColor();
    const QPointF centre(rect.left() + (j + 0.5) * rect.width() / n,
                         rect.top() + (i + 0.5) * rect.height() / n);
    expectColorNear(canvas.pixelColor((centre * scale).toPoint()), want,
                    "token " + std::to_string(i) + "," + std::to_string(j) + " on screen");
  }
}

TEST(Attention, ZoomIntoALargeSequenceShowsItsExactRows) {
  // 4128 tokens: more than a pooled map may hold a side, so single tokens come as exact rows.
  const Scene big = sceneWith("t16,i64x64,t16");
  Window win(big);
  AttentionView* v = win.view;
  v->setSoftmax(true);
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_FALSE(v->shownResult()->request.exactRows);
  v->setZoom(4100, 64);  // the last text tokens looking at the end of the picture
  ASSERT_TRUE(attentionSettled(v));
  const AttentionResult& r = *v->shownResult();
  ASSERT_TRUE(r.request.exactRows);
  EXPECT_EQ(r.request.rowBegin, 4128u - 64u);
  EXPECT_EQ(v->heatmapImage().width(), 64);
  auto core = freshBackend(big, QkSourceSpec{}, false);
  std::vector<float> row(r.tokens);
  core->rows(0, 4120, 4121, AttentionValue::Softmax, row.data());
  const QRectF rect = v->heatmapRect();
  for (std::size_t key : {4064u, 4100u, 4127u}) {
    const QPointF at(rect.left() + (key - 4064 + 0.5) * rect.width() / 64,
                     rect.top() + (4120 - 4064 + 0.5) * rect.height() / 64);
    EXPECT_NEAR(v->valueAt(at), row[key], 1e-6 * row[key]) << key;
    EXPECT_TRUE(v->describeAt(at).contains(QStringLiteral("softmax = "))) << key;
  }
}

TEST(Attention, TextTokenMapIsItsRowOnTheBlockGrid) {
  Window win;  // t4,i6x6,t8 with the third text token selected
  AttentionView* v = win.view;
  v->setRandomQk(2, 11);
  v->setHead(1);
  v->setSoftmax(true);
  ASSERT_TRUE(attentionSettled(v));
  ASSERT_EQ(v->mapRows(), 6);
  ASSERT_EQ(v->mapCols(), 6);
  ASSERT_EQ(v->mapTextToken(), 2);
  QkSourceSpec spec;
  spec.kind = QkSourceSpec::Kind::Random;
  spec.heads = 2;
  spec.seed = 11;
  auto core = freshBackend(fixedScene(), spec, false);
  std::vector<float> row(core->tokens());
  core->rows(1, 2, 3, AttentionValue::Softmax, row.data());
  const std::vector<TokenInfo>& tokens = win.w.model()->metrics().ids.tokens;
  int checked = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].modality == Modality::Text) continue;
    const double shown = v->mapValues()[std::size_t(tokens[i].row) * 6 + tokens[i].col];
    EXPECT_NEAR(shown, row[i], 1e-6 * std::abs(row[i])) << "token " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 36);
  // Choosing another text token (a click on its row) updates the map to that row. The heatmap
  // does not depend on the token: the job takes it again and computes only the one row (no
  // "computing the heatmap" step, 40 %).
  std::mutex stepsMutex;
  std::vector<int> steps;
  v->setJobStepHook([&](const AttentionRequest&, int percent) {
    const std::lock_guard<std::mutex> lock(stepsMutex);
    steps.push_back(percent);
  });
  const std::shared_ptr<const AttentionResult> before =
      std::make_shared<AttentionResult>(*v->shownResult());
  const QRectF rect = v->heatmapRect();
  const double n = static_cast<double>(core->tokens());
  v->clickHeatmap(
      QPointF(rect.left() + 1.5 * rect.width() / n, rect.top() + 42.5 * rect.height() / n));
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_EQ(v->mapTextToken(), 42);
  core->rows(1, 42, 43, AttentionValue::Softmax, row.data());
  EXPECT_NEAR(v->mapValues()[0], row[4], 1e-6 * std::abs(row[4]));
  EXPECT_GT(v->shownResult()->generation, before->generation);
  EXPECT_EQ(v->shownResult()->pooled, before->pooled);
  EXPECT_EQ(v->shownResult()->blocksPerSide, before->blocksPerSide);
  {
    const std::lock_guard<std::mutex> lock(stepsMutex);
    EXPECT_EQ(std::count(steps.begin(), steps.end(), 40), 0) << "the heatmap was computed again";
    EXPECT_EQ(std::count(steps.begin(), steps.end(), 90), 1);  // the text token's row
    steps.clear();
  }
  // Another head is another heatmap: computed, and the core's.
  v->setHead(0);
  ASSERT_TRUE(attentionSettled(v));
  {
    const std::lock_guard<std::mutex> lock(stepsMutex);
    EXPECT_EQ(std::count(steps.begin(), steps.end(), 40), 1);
  }
  v->setJobStepHook({});
  const AttentionResult& head0 = *v->shownResult();
  std::vector<float> pooled(head0.pooled.size());
  core->pooled(0, head0.request.block, AttentionValue::Softmax, pooled.data());
  ASSERT_EQ(head0.pooled.size(), pooled.size());
  for (std::size_t k = 0; k < pooled.size(); ++k)
    EXPECT_NEAR(head0.pooled[k], pooled[k], 1e-6 + 1e-5 * std::abs(pooled[k])) << k;
}

TEST(Attention, ParameterChangeDuringWorkDropsTheStaleJob) {
  // 4128 tokens, 4 heads: long enough that the later edits land while the first job runs.
  const Scene big = sceneWith("t16,i64x64,t16");
  Window win(big);
  AttentionView* v = win.view;
  QSignalSpy shown(v, &AttentionView::resultShown);
  QSignalSpy dropped(v, &AttentionView::jobDropped);
  // The random q/k job is held on the worker's thread at its "rotating q and k" step while the
  // edits come (a fast machine finished it before they did), then let go: it must stop there.
  std::atomic<quint64> held{0};
  QSemaphore go;
  v->setJobStepHook([&](const AttentionRequest& r, int percent) {
    if (percent != 25 || r.source.kind != QkSourceSpec::Kind::Random || r.source.seed != 1) return;
    held = r.generation;
    go.acquire();
  });
  v->setRandomQk(4, 1);
  ASSERT_TRUE(waitUntil([&] { return held.load() != 0; }));
  const quint64 first = held.load();
  EXPECT_EQ(first, v->requestedGeneration());
  v->setHead(2);
  v->setCausal(true);
  v->setRandomQk(4, 3);
  Scene last = big;
  last.layout = parseLayoutSpec("t16,i60x64,t20");
  // The final job (seed 3) is held in its turn, so that the GUI thread is seen turning while the
  // worker is inside a job: a zero-delay timer fires then (an event, not a count of 5 ms ticks,
  // which a loaded machine made fail).
  std::atomic<bool> finalHeld{false};
  QSemaphore goFinal;
  v->setJobStepHook([&](const AttentionRequest& r, int percent) {
    if (percent != 25 || r.source.kind != QkSourceSpec::Kind::Random || r.source.seed != 3) return;
    finalHeld = true;
    goFinal.acquire();
  });
  win.w.model()->setScene(last);
  go.release();
  ASSERT_TRUE(waitUntil([&] { return finalHeld.load(); }));
  bool fired = false;
  QTimer::singleShot(0, [&fired] { fired = true; });
  EXPECT_TRUE(waitUntil([&] { return fired; }))
      << "the GUI thread's event loop did not run while the worker computed";
  goFinal.release();
  ASSERT_TRUE(attentionSettled(v));
  v->setJobStepHook({});
  // The running job was dropped, and only the final request's result reached the screen.
  bool firstDropped = false;
  for (const QList<QVariant>& args : dropped) firstDropped |= args.at(0).toULongLong() == first;
  EXPECT_TRUE(firstDropped);
  EXPECT_EQ(shown.count(), 1);
  const AttentionResult& r = *v->shownResult();
  EXPECT_EQ(r.request.head, 2);
  EXPECT_TRUE(r.request.causal);
  EXPECT_EQ(r.request.source.seed, 3u);
  EXPECT_EQ(r.request.scene.layout, last.layout);
  QkSourceSpec spec;
  spec.kind = QkSourceSpec::Kind::Random;
  spec.heads = 4;
  spec.seed = 3;
  auto core = freshBackend(last, spec, true);
  ASSERT_EQ(r.tokens, core->tokens());
  std::vector<float> pooled(r.pooled.size());
  core->pooled(2, r.request.block, AttentionValue::Logits, pooled.data());
  for (std::size_t k = 0; k < pooled.size(); k += 97) {
    if (std::isinf(pooled[k])) {
      EXPECT_TRUE(std::isinf(r.pooled[k])) << k;
      continue;
    }
    EXPECT_NEAR(r.pooled[k], pooled[k], 1e-4 * (1.0 + std::abs(pooled[k]))) << k;
  }

  // Cancel: the running job is dropped and the last finished result stays. The job is held at
  // its "rotating q and k" step until Cancel was pressed, so that it is running then; once let
  // go it must stop at its next step and say so (jobDropped), and nothing of it is shown.
  const quint64 before = r.generation;
  std::atomic<quint64> running{0};
  QSemaphore resume;
  v->setJobStepHook([&](const AttentionRequest& req, int percent) {
    if (percent != 25 || req.source.kind != QkSourceSpec::Kind::Random || req.source.seed != 9)
      return;
    running = req.generation;
    resume.acquire();
  });
  v->setRandomQk(4, 9);
  ASSERT_TRUE(waitUntil([&] { return running.load() != 0; }));
  ASSERT_TRUE(v->busy());
  v->cancel();
  EXPECT_FALSE(v->busy());
  resume.release();
  v->setJobStepHook({});
  const auto droppedJob = [&] {
    for (const QList<QVariant>& args : dropped)
      if (args.at(0).toULongLong() == running.load()) return true;
    return false;
  };
  ASSERT_TRUE(waitUntil(droppedJob));
  QCoreApplication::processEvents();
  EXPECT_EQ(v->shownResult()->generation, before);
  EXPECT_EQ(shown.count(), 1);
}

TEST(Attention, BackendIsNamedInTheStatusBar) {
  Window win;
  AttentionView* v = win.view;
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_TRUE(v->backendLabel().startsWith(QStringLiteral("attention: cpu")))
      << v->backendLabel().toStdString();
  auto* label = win.w.statusBar()->findChild<QLabel*>(QStringLiteral("statusAttention"));
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->text(), v->backendLabel());
  // auto: the GPU when an OpenGL 4.3 context can be had and is not a software renderer, else
  // the CPU with the reason said once.
  v->setBackendChoice(BackendChoice::Auto);
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_EQ(label->text(), v->backendLabel());
  if (v->backendLabel().startsWith(QStringLiteral("attention: gpu")))
    EXPECT_FALSE(v->backendLabel().contains(QStringLiteral("llvmpipe")));
  else
    EXPECT_TRUE(v->message().contains(QStringLiteral("GPU unavailable")) ||
                v->message().contains(QStringLiteral("software renderer")))
        << v->message().toStdString();
  // gpu: forced, llvmpipe included.
  v->setBackendChoice(BackendChoice::Gpu);
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_EQ(label->text(), v->backendLabel());
  if (!v->backendLabel().startsWith(QStringLiteral("attention: gpu"))) {
    EXPECT_TRUE(v->backendLabel().startsWith(QStringLiteral("attention: cpu")));
    return;
  }
  // The GPU backend, made and used in the worker's thread, gives the CPU's numbers.
  v->setRandomQk(2, 4);
  v->setSoftmax(true);
  ASSERT_TRUE(attentionSettled(v));
  const AttentionResult& r = *v->shownResult();
  QkSourceSpec spec;
  spec.kind = QkSourceSpec::Kind::Random;
  spec.heads = 2;
  spec.seed = 4;
  auto core = freshBackend(fixedScene(), spec, false);
  std::vector<float> pooled(r.pooled.size());
  core->pooled(0, r.request.block, AttentionValue::Softmax, pooled.data());
  for (std::size_t k = 0; k < pooled.size(); ++k)
    ASSERT_NEAR(r.pooled[k], pooled[k], 1e-4 * pooled[k] + 1e-7) << k;
}

namespace {

// Loads `data` of `shape` as q.npy and k.npy into a view once it has settled, and waits for the
// run; returns the generation of the map shown before.
quint64 loadQkFilesAndWait(AttentionView* v, const std::vector<float>& data,
                           const std::vector<std::size_t>& shape) {
  EXPECT_TRUE(attentionSettled(v));
  const quint64 shown = v->shownResult()->generation;
  QTemporaryDir dir;
  const std::string q = dir.filePath(QStringLiteral("q.npy")).toStdString();
  const std::string k = dir.filePath(QStringLiteral("k.npy")).toStdString();
  writeNpy(q, data.data(), data.size(), shape);
  writeNpy(k, data.data(), data.size(), shape);
  v->setQkFiles(QString::fromStdString(q), QString::fromStdString(k));
  EXPECT_TRUE(waitUntil([v] { return !v->busy(); }));
  return shown;
}

}  // namespace

// q . k past float32's range: the map would be NaN; the view says so and keeps the last map.
TEST(Attention, OverflowingLogitsAreOneLineAndTheViewCarriesOn) {
  Window win;
  AttentionView* v = win.view;
  const quint64 good = loadQkFilesAndWait(v, std::vector<float>(48 * 128, 1e20f), {48, 128});
  EXPECT_TRUE(v->message().startsWith(QStringLiteral("the logits of head 1 overflow float32")))
      << v->message().toStdString();
  EXPECT_EQ(v->shownResult()->generation, good);
}

TEST(Attention, BadNpyIsOneLineAndTheViewCarriesOn) {
  Window win;
  AttentionView* v = win.view;
  // 10 tokens; the layout has 48.
  const quint64 good = loadQkFilesAndWait(v, std::vector<float>(10 * 128, 0.5f), {10, 128});
  EXPECT_FALSE(v->message().isEmpty());
  EXPECT_FALSE(v->message().contains(QLatin1Char('\n')));
  EXPECT_TRUE(v->message().contains(QStringLiteral("q.npy"))) << v->message().toStdString();
  EXPECT_EQ(v->shownResult()->generation, good);  // the last good heatmap stays
  // ... and the message says what it shows, since the controls now name the refused files.
  EXPECT_TRUE(
      v->message().endsWith(QStringLiteral("the map still shows the last result "
                                           "(identical q, k)")))
      << v->message().toStdString();
  auto* label = v->findChild<QLabel*>(QStringLiteral("attentionMessage"));
  ASSERT_NE(label, nullptr);
  EXPECT_TRUE(label->wordWrap());  // a long one wraps instead of widening the dock
  v->setIdenticalQk(1);
  // The refusal is over once the next run starts, not only when it ends.
  ASSERT_TRUE(waitUntil([v] { return v->busy(); }));
  EXPECT_FALSE(v->message().contains(QStringLiteral("q.npy"))) << v->message().toStdString();
  ASSERT_TRUE(attentionSettled(v));
  EXPECT_GT(v->shownResult()->generation, good);
}
