#include "model/scene_model.h"

#include "ropescope/decay.h"
#include "ropescope/layout_files.h"
#include "ropescope/metrics.h"
#include "ropescope/model_family.h"
#include "ropescope/scene_problems.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

#include <algorithm>

#include "jobs/latest_worker.h"
#include "ropescope/errors.h"

namespace ropescope::ui {

namespace {
// Above synchronousSummaryMs_ of compute time the all-designs comparison (every design's PTD and
// bias spread, several times the cost of the scene itself) waits this long for edits to pause,
// so sliders stay live, and then runs on the summary worker's thread.
constexpr int kSummaryDelayMs = 150;

// What the core refused, for the field it names (none when it is not an InputError: still about
// the input as far as the user can act on it).
InputProblem problemFrom(const std::exception& e) {
  const auto* input = dynamic_cast<const InputError*>(&e);
  return InputProblem{QString::fromStdString(e.what()),
                      input ? QString::fromStdString(input->field()) : QString()};
}
}  // namespace

SceneModel::SceneModel(QObject* parent)
    : QObject(parent),
      summaryWorker_(std::make_unique<LatestWorker>(this)),
      metricsWorker_(std::make_unique<LatestWorker>(this)),
      biasWorker_(std::make_unique<LatestWorker>(this, LatestWorker::Priority::Low)) {
  qRegisterMetaType<ropescope::SceneChanges>();
  try {
    scene_ = defaultScene();
  } catch (const std::exception&) {
    // A missing default must not stop the window from opening; the panel shows the error.
  }
  valid_ = scene_;
  compute(false);  // the first picture is complete, without an event loop: only edits defer
  flushSummaries();
}

SceneModel::~SceneModel() = default;

void SceneModel::setScene(const Scene& scene) {
  // Sound files count their tokens by the design's rule already: core's setDesign recounts them
  // whenever a design is set, and a layout is read with the scene's rule (layoutContextOf).
  Scene next = scene;
  if (next == scene_ && problems_.empty()) return;
  if (recording_) {
    history_.record(scene_, next);
    if (!inGesture_) history_.endStep();  // committed: the next edit is a step of its own
    emit historyChanged();
  }
  scene_ = std::move(next);
  const Scene shown = valid_;
  compute();
  emit changed(sceneChanges(shown, valid_));
}

void SceneModel::compute(bool mayDefer) {
  const int threads = std::max(1, QThread::idealThreadCount());
  computing_ = false;
  metricsWorker_->cancel();  // metrics still computing are of an older edit: dropped
  QElapsedTimer timer;
  timer.start();
  try {
    if (computeSmallChange(threads)) return;
    ++fullComputations_;
    const double pairs = textVisualPairs(scene_);
    if (mayDefer && pairs > backgroundPairs_) {
      // Seconds of work: the checks first (their message belongs beside the field at once),
      // the metrics on the worker; the views keep the last valid scene meanwhile. The ids and
      // PTD come first (a million tokens: about a second); the bias spread of a scene with more
      // pairs than idsFirstPairs_ follows on its own worker (startBackgroundBias), so a huge
      // scene is drawn long before its spread is known.
      validateScene(scene_);
      problems_.clear();
      computing_ = true;
      const BiasSpreadWhen when =
          pairs > idsFirstPairs_ ? BiasSpreadWhen::Later : BiasSpreadWhen::Now;
      // One thread, of the window's priority: the window keeps the other core for its frames
      // (dragging α on a 1M-token Circle-RoPE scene drew 2 frames a second while each step's
      // ids were computed on both, with llvmpipe's threads and the window's on the same two
      // cores). Not the lowest priority: on a loaded machine the 4M-token video's ids had not
      // come after 40 s at nice 19, against 5 s on two threads.
      metricsWorker_->request([this, when, scene = scene_](const LatestWorker::Context& job) {
        const int threads = 1;
        QElapsedTimer clock;
        clock.start();
        std::optional<SceneMetrics> metrics;
        std::optional<InputProblem> problem;
        try {
          // A newer edit or the user's cancel stops the work itself, not only its result.
          metrics = computeSceneMetrics(scene, kDefaultDecayDistance, threads, when, stopOf(job));
        } catch (const std::exception& e) {
          problem = problemFrom(e);
        }
        if (job.stop) return;
        const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        job.post([this, ms, metrics = std::move(metrics), problem = std::move(problem),
                  scene]() mutable {
          computing_ = false;
          const Scene shown = valid_;
          if (problem) {
            refuse(*problem);
          } else {
            valid_ = scene;
            accept(std::move(*metrics), ms);
          }
          emit changed(sceneChanges(shown, valid_));
        });
      });
      return;
    }
    // The bias spread of a mid-size scene follows from the background: the views draw the rest.
    const bool idsFirst = mayDefer && pairs > idsFirstPairs_;
    SceneMetrics metrics =
        computeSceneMetrics(scene_, kDefaultDecayDistance, threads,
                            idsFirst ? BiasSpreadWhen::Later : BiasSpreadWhen::Now);
    valid_ = scene_;
    accept(std::move(metrics), static_cast<double>(timer.nsecsElapsed()) / 1e6);
  } catch (const std::exception& e) {
    refuse(problemFrom(e));
  }
}

bool SceneModel::computeSmallChange(int threads) {
  if (!hasMetrics_) return false;  // at construction: nothing computed to update yet
  const SceneChanges changes = sceneChanges(valid_, scene_);
  // The comparison and the modality table read neither part: one still pending for valid_
  // stays valid, so it is left to finish.
  if (changes.touches(kBiasParts)) return false;
  QElapsedTimer timer;
  timer.start();
  // Throws before changing the metrics.
  updateSceneMetrics(metrics_, scene_, changes, kDefaultDecayDistance, threads);
  valid_ = scene_;
  problems_.clear();
  computeMs_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return true;
}

void SceneModel::accept(SceneMetrics metrics, double milliseconds) {
  // The first scene (the constructor's) is compared at once whatever it took: the first picture
  // is complete, and no background request depends on how fast this machine computed it.
  const bool first = !hasMetrics_;
  computeMs_ = milliseconds;
  metrics_ = std::move(metrics);
  hasMetrics_ = true;
  problems_.clear();
  biasWorker_->cancel();     // a bias spread still running is of an older scene: dropped
  summaryWorker_->cancel();  // a comparison still running is of an older scene: dropped
  if (metrics_.biasPending) startBackgroundBias();
  // A scene whose bias spread was left for later is one whose comparison is slow too.
  if (first || (!metrics_.biasPending && computeMs_ < synchronousSummaryMs_)) {
    computeSummaries();
  } else {
    summariesPending_ = true;
    // After the scene's own spread, which the user waits for first: on two cores the
    // comparison's threads starved the spread's low-priority one (a 1M-token video's spread
    // had not reached 1 % after 25 s).
    if (!metrics_.biasPending) startBackgroundSummaries();
  }
  if (selectedVisual_ >= static_cast<long>(metrics_.ptd.nVisual)) selectedVisual_ = -1;
}

void SceneModel::refuse(const InputProblem& problem) {
  computing_ = false;
  problems_ = {problem};
  if (problem.field.isEmpty()) return;  // not about one field: no other field is looked at
  for (const InputError& e : sceneProblems(scene_, valid_)) {
    const QString field = QString::fromStdString(e.field());
    if (std::none_of(problems_.begin(), problems_.end(),
                     [&](const InputProblem& p) { return p.field == field; }))
      problems_.push_back({QString::fromStdString(e.what()), field});
  }
}

bool SceneModel::waitForMetrics(int ms) {
  QElapsedTimer clock;
  clock.start();
  // Asleep in the event loop until an event comes (the workers' results are queued calls), not
  // spinning: a spinning window thread took a core from the low-priority worker it waited for
  // (on two loaded cores, 0.8 % of a core reached the spread). The tick bounds each sleep, so
  // the limit is checked even when nothing comes.
  QTimer tick;
  tick.start(50);
  while ((computing_ || biasPending()) && clock.elapsed() < ms)
    QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
  return !computing_ && !biasPending();
}

void SceneModel::startBackgroundBias() {
  // At once, not after edits pause: a dragged slider's spread is shown as often as it can be.
  // A newer scene's accept() cancels it; a selection click or a refused edit leaves it running,
  // since neither changes the scene shown. One thread of low priority: the window's frames come
  // first (on two cores, α dragged on 4096 tokens drew 28 frames a second with the spread on two
  // threads of the window's priority, 34 with this), and the pool's threads, which the window's
  // own computations share, keep theirs.
  biasFraction_ = 0.0;
  biasWorker_->request([this, scene = valid_](const LatestWorker::Context& job) {
    QElapsedTimer clock;
    clock.start();
    BiasResult bias;
    try {
      bias = sceneBiasSpread(scene, 1, withProgress(job, &SceneModel::biasFraction_));
    } catch (const std::exception& e) {
      // valid_ passed the core's checks: not the user's input, but never shown as a number.
      bias = BiasResult{};
      bias.undefinedReason = e.what();
    }
    if (job.stop) return;
    const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    job.post([this, ms, bias = std::move(bias)]() mutable {
      metrics_.bias = std::move(bias);
      metrics_.biasPending = false;
      computeMs_ += ms;  // the scene's whole compute time, as the status bar says
      if (summariesPending_) startBackgroundSummaries();  // waited for the spread (accept)
      emit biasChanged();
    });
  });
}

void SceneModel::computeSummaries() {
  summaryWorker_->cancel();  // a comparison waiting for edits to settle, or running
  summariesPending_ = false;
  summariesRunning_ = false;
  ++comparisons_;
  try {
    const int threads = std::max(1, QThread::idealThreadCount());
    summaries_ = compareDesigns(valid_, threads, {}, kInteractiveBiasLimit);
    modalities_ = sceneModalityMetrics(valid_, threads);
  } catch (const std::exception&) {
    summaries_.clear();  // valid_ passed the core's checks, so this is not the user's input
    modalities_.clear();
  }
}

void SceneModel::startBackgroundSummaries() {
  // After edits pause (kSummaryDelayMs), so that sliders stay live; a newer edit's request
  // replaces this one while it waits.
  summaryFraction_ = 0.0;
  summariesRunning_ = false;  // the newer one waits for edits to pause first
  summaryWorker_->requestAfter(
      kSummaryDelayMs, [this, scene = valid_, threads = std::max(1, QThread::idealThreadCount())](
                           const LatestWorker::Context& job) {
        ++comparisons_;  // on the worker's thread: comparisons_ is atomic
        // Running now, not waiting for edits to pause: the status bar shows it from here on (a
        // slider dragged on a mid-size scene keeps a comparison waiting throughout).
        job.post([this] {
          summariesRunning_ = true;
          emit progressChanged();
        });
        std::vector<DesignSummary> rows;
        std::vector<ModalityPairMetrics> pairs;
        try {
          rows = compareDesigns(scene, threads, withProgress(job, &SceneModel::summaryFraction_),
                                kInteractiveBiasLimit);
          pairs = sceneModalityMetrics(scene, threads, &job.stop);
        } catch (const std::exception&) {
          rows.clear();  // valid_ passed the core's checks, so this is not the user's input
          pairs.clear();
        }
        if (job.stop) return;
        job.post([this, rows = std::move(rows), pairs = std::move(pairs)]() mutable {
          summariesPending_ = false;
          summariesRunning_ = false;
          summaries_ = std::move(rows);
          modalities_ = std::move(pairs);
          emit summariesChanged();
        });
      });
}

Progress SceneModel::stopOf(const LatestWorker::Context& job) {
  return Progress{[&job] { return job.stop.load(); }, {}};
}

Progress SceneModel::withProgress(const LatestWorker::Context& job, double SceneModel::*fraction) {
  Progress p = stopOf(job);
  // On this thread only through post: a stale job's fraction is dropped with its result. Only
  // a new whole percent is posted (a comparison reports thousands of fractions).
  p.report = [this, &job, fraction, shown = -1](double f) mutable {
    const int percent = static_cast<int>(f * 100.0);
    if (percent == shown) return;
    shown = percent;
    job.post([this, fraction, f] {
      this->*fraction = f;
      emit progressChanged();
    });
  };
  return p;
}

bool SceneModel::backgroundBusy() const {
  return computing_ || biasPending() || (summariesPending_ && summariesRunning_);
}

SceneModel::BackgroundProgress SceneModel::backgroundProgress() const {
  // The one the user waits for first: the edited scene, then its bias spread, then the charts.
  if (computing_) return {tr("computing the scene"), -1.0};
  if (biasPending()) return {tr("bias spread"), biasFraction_};
  if (summariesPending_ && summariesRunning_)
    return {tr("every design's PTD and bias spread"), summaryFraction_};
  return {};
}

void SceneModel::cancelBackground() {
  if (!backgroundBusy()) return;
  if (computing_) {
    metricsWorker_->cancel();  // the work stops (Progress.cancel), its result is dropped
    refuse({tr("computing the edited scene was cancelled: the views show the last valid scene"),
            QString()});
    emit changed({});
  }
  if (biasPending()) {
    biasWorker_->cancel();
    metrics_.biasPending = false;
    metrics_.bias = BiasResult{};
    metrics_.bias.undefinedReason = kCancelledReason;  // never a number, never 0
    emit biasChanged();
  }
  if (summariesPending_) {
    summaryWorker_->cancel();
    summariesPending_ = false;
    summariesRunning_ = false;
    // Every design's row and every pair of modalities says it was cancelled (a cancel that is
    // already true computes nothing).
    try {
      summaries_ = compareDesigns(valid_, 1, Progress{[] { return true; }, {}});
      const std::atomic<bool> stopped{true};
      modalities_ = sceneModalityMetrics(valid_, 1, &stopped);
    } catch (const std::exception&) {
      summaries_.clear();  // valid_ passed the core's checks, so this is not the user's input
      modalities_.clear();
    }
    emit summariesChanged();
  }
  emit progressChanged();
}

void SceneModel::flushSummaries() {
  if (!summariesPending_) return;
  computeSummaries();
  emit summariesChanged();
}

void SceneModel::reportProblem(const InputProblem& problem) {
  // An edit the ui refused replaces any edit still computing (its metrics are dropped).
  metricsWorker_->cancel();
  refuse(problem);
  emit changed({});  // the shown scene stays: only its state changed
}

void SceneModel::chooseDesign(const std::string& name, bool suggestedPlan) {
  // A family's grid may refuse a picture of the layout (a side under its 32 px): said beside the
  // design box, the scene as it was.
  try {
    chooseDesignOrThrow(name, suggestedPlan);
  } catch (const InputError& e) {
    reportProblem({QString::fromUtf8(e.what()), QString::fromStdString(e.field())});
  }
}

void SceneModel::chooseDesignOrThrow(const std::string& name, bool suggestedPlan) {
  edit([&](Scene& s) {
    const std::string left = s.design;
    const ParameterSet params = s.designParams;
    if (suggestedPlan)
      pickDesign(s, name);
    else
      setDesign(s, name);
    if (s.design == left) return;  // the same design keeps its parameters
    leftParams_[left] = params;
    if (const auto it = leftParams_.find(s.design); it != leftParams_.end())
      s.designParams = it->second;
  });
}

void SceneModel::undo() {
  if (!history_.canUndo()) return;
  setSceneUnrecorded(history_.undo(scene_));
}

void SceneModel::redo() {
  if (!history_.canRedo()) return;
  setSceneUnrecorded(history_.redo(scene_));
}

void SceneModel::setSceneUnrecorded(const Scene& scene) {
  recording_ = false;
  setScene(scene);
  recording_ = true;
  emit historyChanged();
}

void SceneModel::beginGesture() {
  history_.endStep();  // a gesture never joins the edit before it
  inGesture_ = true;
}

void SceneModel::endGesture() {
  inGesture_ = false;
  history_.endStep();
}

void SceneModel::clearHistory() {
  history_.clear();
  emit historyChanged();
}

void SceneModel::setSelectedText(int textIndex) {
  if (textIndex == scene_.selectedText) return;
  edit([textIndex](Scene& s) { s.selectedText = textIndex; });
}

void SceneModel::setSelectedVisual(long visualIndex) {
  const long count = static_cast<long>(metrics_.ptd.nVisual);
  if (visualIndex < -1 || visualIndex >= count) visualIndex = -1;
  if (visualIndex == selectedVisual_) return;
  selectedVisual_ = visualIndex;
  emit selectionChanged();
}

}  // namespace ropescope::ui
