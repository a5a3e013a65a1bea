// The one refresh of the side tabs that show what core computes of the shown scene's ids and
// rotary (the Budget and Principles tabs): a tab waits to be seen (WhenShown), follows the
// model's edits that touch kBiasParts, keeps the scene it computed for and the one it computes,
// computes a scene of at most backgroundTokens() tokens at once and a larger one on a
// LatestWorker (newest wins; an edit undone cancels the job and the last result shows again),
// marks its note "(updating…)" meanwhile and emits computed() for each result.
//
// A tab gives the computation, which makes the result (on the worker for a large scene) and
// hands back how the tab takes it, and draws. A freshness key beside the scene (the Budget tab's
// model max positions) makes a result stale when it changes.
#pragma once

#include <QString>
#include <QWidget>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

#include "jobs/latest_worker.h"
#include "ropescope/scene.h"

namespace ropescope::ui {

class SceneModel;
class WhenShown;

class SceneTab : public QWidget {
  Q_OBJECT

 public:
  ~SceneTab() override;

  // Scenes of more tokens than this compute on the worker (default the tab's; tests).
  void setBackgroundTokens(std::size_t tokens) { backgroundTokens_ = tokens; }
  // Whether a large scene's result is being computed (the tab shows the last one meanwhile).
  bool pending() const { return pendingFor_.has_value(); }
  // Whether the tab shows the shown scene's result (nothing computing, nothing waiting).
  bool settled() const;
  int computations() const { return computations_; }

 signals:
  void computed();

 protected:
  // Stores a computed result into the tab (runs on the window's thread).
  using Take = std::function<void()>;
  // Computes the tab's result of `scene` at `key`; `stop` (null on the window's thread) says a
  // worker's job went stale. On the worker it must read only its arguments.
  using Compute =
      std::function<Take(const Scene& scene, long long key, const std::atomic<bool>* stop)>;
  struct Setup {
    Compute compute;
    // The freshness key of a scene beside the scene itself (none: always 0).
    std::function<long long(const Scene& scene)> key;
    std::size_t backgroundTokens = 0;
    LatestWorker::Priority priority = LatestWorker::Priority::Normal;
  };

  SceneTab(SceneModel* model, QWidget* parent);
  // Starts following the model: the tab's constructor calls it once its widgets exist.
  void start(Setup setup);
  // Refreshes now if the tab can be seen, else once it is shown (the key changed).
  void request();
  // " (updating…)" while pending(), else empty: the end of the tab's note.
  QString updatingMark() const;
  // Shows the tab's result (and the updating mark).
  virtual void draw() = 0;

  SceneModel* model_;

 private:
  void refresh();
  long long keyOf(const Scene& scene) const;
  bool fresh(const Scene& scene, long long key) const;
  void take(const Scene& scene, long long key, const Take& taking);

  Setup setup_;
  std::size_t backgroundTokens_ = 0;
  std::optional<Scene> computedFor_;
  long long computedKey_ = 0;
  std::optional<Scene> pendingFor_;
  int computations_ = 0;
  WhenShown* shown_ = nullptr;
  std::unique_ptr<LatestWorker> worker_;
};

}  // namespace ropescope::ui
