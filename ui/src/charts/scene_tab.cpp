// The refresh of a side tab computed from the shown scene (scene_tab.h).
#include "charts/scene_tab.h"

#include <utility>

#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/scene_changes.h"

namespace ropescope::ui {

SceneTab::SceneTab(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {}

// No refresh after this (the tab's draw is gone). The worker is joined after it, once the tab's
// own members went: a running job reads only its arguments, and what it posts is dropped with
// the tab.
SceneTab::~SceneTab() {
  delete shown_;
}

void SceneTab::start(Setup setup) {
  setup_ = std::move(setup);
  backgroundTokens_ = setup_.backgroundTokens;
  worker_ = std::make_unique<LatestWorker>(this, setup_.priority);
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The result reads the ids and the rotary, not the selection; an empty set is any change.
    if (!parts.empty() && !parts.touches(kBiasParts)) return;
    shown_->request();
  });
  shown_->request();
}

void SceneTab::request() {
  if (shown_) shown_->request();
}

QString SceneTab::updatingMark() const {
  return pendingFor_ ? tr(" (updating\xe2\x80\xa6)") : QString();
}

long long SceneTab::keyOf(const Scene& scene) const {
  return setup_.key ? setup_.key(scene) : 0;
}

bool SceneTab::fresh(const Scene& scene, long long key) const {
  return computedFor_ && !sceneChanges(*computedFor_, scene).touches(kBiasParts) &&
         computedKey_ == key;
}

bool SceneTab::settled() const {
  const Scene& scene = model_->validScene();
  return !pendingFor_ && shown_ && !shown_->dirty() && fresh(scene, keyOf(scene));
}

void SceneTab::refresh() {
  const Scene scene = model_->validScene();
  const long long key = keyOf(scene);
  if (fresh(scene, key)) {
    pendingFor_.reset();
    worker_->cancel();  // back to the shown result (an edit undone)
    draw();
    return;
  }
  if (scene.layout.tokenCount() <= backgroundTokens_) {
    pendingFor_.reset();
    worker_->cancel();
    take(scene, key, setup_.compute(scene, key, nullptr));
    return;
  }
  // A large scene: on the worker, newest wins; the tab says it is updating meanwhile.
  pendingFor_ = scene;
  worker_->request([this, scene, key, compute = setup_.compute](const LatestWorker::Context& job) {
    Take taking = compute(scene, key, &job.stop);
    if (job.stop) return;
    job.post([this, scene, key, taking = std::move(taking)] {
      pendingFor_.reset();
      take(scene, key, taking);
    });
  });
  draw();
}

void SceneTab::take(const Scene& scene, long long key, const Take& taking) {
  ++computations_;
  computedFor_ = scene;
  computedKey_ = key;
  taking();
  draw();
  emit computed();
}

}  // namespace ropescope::ui
