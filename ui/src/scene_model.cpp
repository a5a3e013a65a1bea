#include "scene_model.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>

#include "ropescope/errors.h"
#include "summary_worker.h"

namespace ropescope::ui {

namespace {
// Above synchronousSummaryMs_ of compute time the all-designs comparison (every design's PTD and
// bias spread, several times the cost of the scene itself) waits this long for edits to pause,
// so sliders stay live, and then runs on the summary worker's thread.
constexpr int kSummaryDelayMs = 150;
}  // namespace

SceneModel::SceneModel(QObject* parent) : QObject(parent) {
  summaryTimer_ = new QTimer(this);
  summaryTimer_->setSingleShot(true);
  summaryTimer_->setInterval(kSummaryDelayMs);
  connect(summaryTimer_, &QTimer::timeout, this, &SceneModel::startBackgroundSummaries);
  worker_ = new SummaryWorker(this);
  connect(worker_, &SummaryWorker::finished, this,
          [this](std::uint64_t generation, const std::vector<DesignSummary>& rows, const QString&) {
            if (generation != summaryGeneration_ || !summariesPending_) return;
            summariesPending_ = false;
            summaries_ = rows;  // empty when valid_ failed in core: not the user's input
            emit summariesChanged();
          });
  try {
    scene_ = defaultScene();
  } catch (const std::exception&) {
    // A missing default must not stop the window from opening; the panel shows the error.
  }
  valid_ = scene_;
  compute();
  flushSummaries();  // the first picture is complete; only edits are allowed to defer it
}

void SceneModel::setScene(const Scene& scene) {
  if (scene == scene_ && !problem_) return;
  scene_ = scene;
  compute();
  emit changed();
}

void SceneModel::compute() {
  const int threads = std::max(1, QThread::idealThreadCount());
  QElapsedTimer timer;
  timer.start();
  try {
    checkInteractiveSize(scene_);  // a legal but huge layout must not hold the window
    SceneMetrics metrics = computeSceneMetrics(scene_, 256, threads);
    computeMs_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    metrics_ = std::move(metrics);
    valid_ = scene_;
    problem_.reset();
    ++summaryGeneration_;
    worker_->cancel();  // a comparison still running is of an older scene
    if (computeMs_ < synchronousSummaryMs_) {
      computeSummaries();
    } else {
      summariesPending_ = true;
      summaryTimer_->start();
    }
    if (selectedVisual_ >= static_cast<long>(metrics_.ptd.nVisual)) selectedVisual_ = -1;
  } catch (const InputError& e) {
    problem_ = InputProblem{QString::fromStdString(e.what()), QString::fromStdString(e.field())};
  } catch (const std::exception& e) {
    // Anything else from core is still about the input as far as the user can act on it.
    problem_ = InputProblem{QString::fromStdString(e.what()), {}};
  }
}

void SceneModel::computeSummaries() {
  summaryTimer_->stop();
  summariesPending_ = false;
  try {
    summaries_ = compareDesigns(valid_, std::max(1, QThread::idealThreadCount()));
  } catch (const std::exception&) {
    summaries_.clear();  // valid_ passed the core's checks, so this is not the user's input
  }
}

void SceneModel::startBackgroundSummaries() {
  if (summariesPending_) worker_->request(valid_, summaryGeneration_);
}

void SceneModel::flushSummaries() {
  if (!summariesPending_) return;
  worker_->cancel();
  computeSummaries();
  emit summariesChanged();
}

void SceneModel::reportProblem(const InputProblem& problem) {
  problem_ = problem;
  emit changed();
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
