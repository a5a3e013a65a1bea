#include "scene_model.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>

#include "ropescope/errors.h"

namespace ropescope::ui {

namespace {
// Above this compute time the all-designs comparison (every design's PTD and bias spread, several
// times the cost of the scene itself) waits until edits pause, so sliders stay live.
constexpr double kSynchronousSummaryMs = 8.0;
constexpr int kSummaryDelayMs = 150;
}  // namespace

SceneModel::SceneModel(QObject* parent) : QObject(parent) {
  summaryTimer_ = new QTimer(this);
  summaryTimer_->setSingleShot(true);
  summaryTimer_->setInterval(kSummaryDelayMs);
  connect(summaryTimer_, &QTimer::timeout, this, &SceneModel::flushSummaries);
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
    if (computeMs_ < kSynchronousSummaryMs) {
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

void SceneModel::flushSummaries() {
  if (!summariesPending_) return;
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
