// The one Qt model of the GUI: holds the Scene being edited, the last valid Scene with its
// metrics, the input problem (if any) and the linked token selection; emits changed(parts) with
// the parts of the shown scene an edit changed, so that each view recomputes only what reads them.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jobs/latest_worker.h"
#include "ropescope/modality_metrics.h"
#include "ropescope/progress.h"
#include "ropescope/scene.h"
#include "ropescope/scene_changes.h"
#include "ropescope/scene_history.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::ui {

// An input the core refused, and the field it names (empty when the whole input is at fault).
struct InputProblem {
  QString message;
  QString field;
  bool operator==(const InputProblem&) const = default;
};

class SceneModel : public QObject {
  Q_OBJECT

 public:
  explicit SceneModel(QObject* parent = nullptr);
  ~SceneModel() override;

  // The scene as the user last edited it; may be invalid (then isStale()).
  const Scene& scene() const { return scene_; }
  // The last scene the core accepted; every view shows this one.
  const Scene& validScene() const { return valid_; }
  const SceneMetrics& metrics() const { return metrics_; }
  const std::vector<DesignSummary>& designSummaries() const { return summaries_; }
  // PTD and bias spread between every two modalities of the scene's design (computed with the
  // design comparison, so summariesPending() and summariesChanged() cover it too).
  const std::vector<ModalityPairMetrics>& modalityMetrics() const { return modalities_; }
  // True while the all-designs comparison of a large scene waits for edits to settle or runs in
  // the background; the summaries then still belong to an earlier scene.
  bool summariesPending() const { return summariesPending_; }
  // Computes a pending comparison now, on this thread (tests, and before saving a figure).
  void flushSummaries();
  LatestWorker* summaryWorker() const { return summaryWorker_.get(); }
  // True while the metrics of an edited large scene are computed in the background; the views
  // still show validScene(), which is then the scene before that edit.
  bool computing() const { return computing_; }
  // True while the bias spread of the shown scene is computed in the background (a scene with
  // more pairs than setIdsFirstPairs's): every other result of metrics() is the shown scene's,
  // and metrics().bias is no result yet; biasChanged() tells when it is.
  bool biasPending() const { return metrics_.biasPending; }
  // Waits (running the event loop) until computing() and biasPending() are false; false if `ms`
  // passed first.
  bool waitForMetrics(int ms = 120000);
  LatestWorker* metricsWorker() const { return metricsWorker_.get(); }
  LatestWorker* biasWorker() const { return biasWorker_.get(); }
  // Whether any result of the shown or edited scene is still computed in the background (the
  // edited scene's metrics, the bias spread, the every-design charts and modality table once
  // their job has started: one waiting for edits to pause is not shown).
  bool backgroundBusy() const;
  // The background work the status bar shows: what runs first, and how much of it is done.
  struct BackgroundProgress {
    QString task;          // empty when nothing runs
    double fraction = -1;  // 0..1; -1 while unknown
  };
  BackgroundProgress backgroundProgress() const;
  // Stops every background computation now (the status bar's Cancel, Esc): an edited scene
  // still computing is refused (the views keep the last valid scene), a bias spread and the
  // every-design rows read kCancelledReason; the next edit computes everything again.
  void cancelBackground();
  // Scenes with more text x visual pairs than this are computed in the background (default
  // 2^22, about a tenth of a second of bias spread; tests lower it).
  void setBackgroundPairs(double pairs) { backgroundPairs_ = pairs; }
  // Edited scenes with more text x visual pairs than this (and no more than the background's)
  // show every result but the bias spread at once and compute the spread in the background
  // (default 2^20, a few milliseconds of bias spread: dragging α on a 4096-token Circle-RoPE
  // scene redraws the 3-D view without waiting for its 4 million pairs). The first scene never.
  void setIdsFirstPairs(double pairs) { idsFirstPairs_ = pairs; }
  // Scenes computed faster than this compare the designs at once, on this thread; slower ones
  // after edits pause, in the background (default 8 ms; tests set 0 to force the background).
  void setSynchronousSummaryLimit(double milliseconds) { synchronousSummaryMs_ = milliseconds; }
  bool isStale() const { return !problems_.empty(); }
  // The first problem (what the core refused first; the views keep the last valid scene).
  std::optional<InputProblem> problem() const {
    return problems_.empty() ? std::nullopt : std::optional(problems_.front());
  }
  // Every problem, one per field: the first, then the other fields the edited scene has wrong
  // (sceneProblems), so each editor can show its own message.
  const std::vector<InputProblem>& problems() const { return problems_; }
  double computeMilliseconds() const { return computeMs_; }
  // How often the full metrics and the all-designs comparison were computed (started, on this
  // thread or a worker's), for tests: a selection click starts neither.
  int fullComputations() const { return fullComputations_; }
  int comparisons() const { return comparisons_.load(); }

  // Visual token the user picked (index among visual tokens), -1 for none. Not part of the
  // Scene file: it only links the views.
  long selectedVisual() const { return selectedVisual_; }

  // Recomputes at once; on InputError keeps the last valid scene and records the problem.
  void setScene(const Scene& scene);
  template <typename Edit>
  void edit(Edit&& change) {
    Scene next = scene_;
    change(next);
    setScene(next);
  }
  // For input the ui parses itself before it is a Scene (e.g. a typed layout spec).
  void reportProblem(const InputProblem& problem);
  // The user's choice of a design (the design box, a bar of the every-design charts): the
  // design with the parameters it had when the user last left it in this session (defaults the
  // first time: setDesign), and with `suggestedPlan` the frequency plan it was published with
  // (pickDesign). Switching to MCA and back kept none of Circle-RoPE's tuned alpha and beta.
  void chooseDesign(const std::string& name, bool suggestedPlan);

  void setSelectedText(int textIndex);
  void setSelectedVisual(long visualIndex);

  // Edit → Undo / Redo (ropescope/scene_history.h): each edit is a step of its own (a value
  // typed and committed, a combo box's choice, a file opened), except the edits of a gesture
  // (beginGesture … endGesture: a slider dragged), which make one step. clearHistory: a scene
  // opened or started afresh.
  void undo();
  void redo();
  bool canUndo() const { return history_.canUndo(); }
  bool canRedo() const { return history_.canRedo(); }
  void clearHistory();
  void beginGesture();
  void endGesture();
  // Sets a scene that is no edit of the user's (from the history, a tour step and the tour's
  // way back): the history is not added to.
  void setSceneUnrecorded(const Scene& scene);

 signals:
  // After every edit, refusal or background result. `parts`: what differs between the scene the
  // views showed (validScene()) and the one they show now; empty when only the state changed
  // (stale, computing, the edited scene). Views update their stale marks on every signal and
  // recompute the results that read a part in `parts` (scene_changes.h).
  void changed(ropescope::SceneChanges parts);
  // The bias spread of the shown scene came in from the background (biasPending() turned false;
  // the scene and every other result are the same).
  void biasChanged();
  void selectionChanged();
  void summariesChanged();
  // backgroundProgress() may have changed (a fraction came in, or work was cancelled).
  void progressChanged();
  // canUndo() or canRedo() may have changed.
  void historyChanged();

 private:
  void chooseDesignOrThrow(const std::string& name, bool suggestedPlan);
  // `mayDefer`: a large scene's metrics may go to the worker (edits); the first scene never does.
  void compute(bool mayDefer = true);
  // Recomputes the metrics of valid_ for scene_ in place when they differ only in parts that
  // need no new ids or bias spread (the selection, the label); false when they need more.
  bool computeSmallChange(int threads);
  void accept(SceneMetrics metrics, double milliseconds);
  void refuse(const InputProblem& problem);
  void computeSummaries();
  void startBackgroundSummaries();
  void startBackgroundBias();
  // Core's Progress for a job: cancel when the job went stale; with `fraction`, reports set that
  // member (on this thread) and emit progressChanged.
  static Progress stopOf(const LatestWorker::Context& job);
  Progress withProgress(const LatestWorker::Context& job, double SceneModel::*fraction);

  SceneHistory history_;
  bool recording_ = true;
  bool inGesture_ = false;  // between beginGesture() and endGesture()
  Scene scene_;
  Scene valid_;
  SceneMetrics metrics_;
  std::vector<DesignSummary> summaries_;
  std::vector<ModalityPairMetrics> modalities_;
  std::vector<InputProblem> problems_;
  double computeMs_ = 0.0;
  bool summariesPending_ = false;
  double biasFraction_ = 0.0;      // of the background bias spread, 0..1
  double summaryFraction_ = 0.0;   // of the background every-design comparison, 0..1
  bool summariesRunning_ = false;  // the pending comparison has started (not only waiting)
  double synchronousSummaryMs_ = 8.0;
  bool computing_ = false;
  double backgroundPairs_ = 4194304.0;
  double idsFirstPairs_ = 1048576.0;
  bool hasMetrics_ = false;  // metrics_ belong to valid_ (accept() has run)
  int fullComputations_ = 0;
  std::atomic<int> comparisons_{0};
  // Last members: destroyed (their threads joined) first.
  std::unique_ptr<LatestWorker> summaryWorker_;
  std::unique_ptr<LatestWorker> metricsWorker_;
  std::unique_ptr<LatestWorker> biasWorker_;
  long selectedVisual_ = -1;
  std::map<std::string, ParameterSet> leftParams_;  // by design: its parameters when left
};

}  // namespace ropescope::ui

Q_DECLARE_METATYPE(ropescope::SceneChanges)
