#include "charts/compare_view.h"

#include <QGridLayout>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_changes.h"
#include "ropescope/scene_metrics.h"
#include "style/metric_text.h"

namespace ropescope::ui {

CompareView::CompareView(SceneModel* model, QWidget* parent)
    : QWidget(parent), model_(model), designs_{"hard", "unordered", "spatial", "circle"} {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(2);
  for (std::size_t i = 0; i < designs_.size(); ++i) {
    auto* view = new PositionSpaceView(this);
    view->setObjectName(QString::fromStdString("compare_" + designs_[i]));
    grid->addWidget(view, static_cast<int>(i / 2), static_cast<int>(i % 2));
    views_.push_back(view);
    // A quadrant's title would run into the t/h/w key; its axes are labelled t, h and w.
    view->setAxisKeyVisible(false);
    // Linked cameras: the designs' extents differ by orders of magnitude (hard spans the whole
    // sequence, circle a small ring), so one shared camera would shrink three views to dots.
    // Rotation and zoom are linked; each view keeps framing its own content.
    connect(view, &VtkView::cameraInteracted, this, [this, view] { followCamera(view); });
    connect(view, &PositionSpaceView::textTokenClicked, model_, &SceneModel::setSelectedText);
    connect(view, &PositionSpaceView::visualTokenClicked, model_, &SceneModel::setSelectedVisual);
  }
  ptds_.assign(designs_.size(), std::numeric_limits<double>::quiet_NaN());
  distances_.assign(designs_.size(), 0.0);
  worker_ = std::make_unique<LatestWorker>(this);
  // Only while seen: compare mode's page, hidden behind the 3-D view, waits for its show.
  whenShown_ = new WhenShown(
      this, [this] { refresh(); }, WhenShown::UnshownWindow::Wait);
  // Every change redraws (the stale marks, the selection); refresh() recomputes the four
  // designs' ids only when a part they read changed.
  connect(model_, &SceneModel::changed, whenShown_, &WhenShown::request);
  connect(model_, &SceneModel::selectionChanged, whenShown_, &WhenShown::request);
  whenShown_->request();
}

CompareView::~CompareView() = default;

bool CompareView::settled() const {
  return !pendingFor_ && !whenShown_->dirty() && computed_ &&
         !sceneChanges(computedFor_, model_->validScene()).touches(kIdsParts);
}

namespace {

// The four designs' ids for `base`, each design with its defaults except the scene's own (the
// rule of compareDesigns); a design that fails gives its error instead. `stop` ends early.
void computeAll(const Scene& base, const std::vector<std::string>& designs,
                std::vector<DesignIds>& ids, std::vector<QString>& errors,
                const std::atomic<bool>* stop) {
  // Fresh vectors, not reuse: a huge scene's capacity must not outlive it.
  ids = std::vector<DesignIds>(designs.size());
  errors = std::vector<QString>(designs.size());
  const int threads = std::max(1, QThread::idealThreadCount());
  for (std::size_t i = 0; i < designs.size() && !(stop && *stop); ++i) {
    try {
      ids[i] = computeDesignIds(sceneUnderDesign(base, designs[i]), threads);
    } catch (const std::exception& e) {
      errors[i] = QStringLiteral("%1: %2").arg(QString::fromStdString(designs[i]),
                                               QString::fromStdString(e.what()));
    }
  }
}

}  // namespace

void CompareView::refresh() {
  const Scene& base = model_->validScene();
  const bool idsChanged = !computed_ || sceneChanges(computedFor_, base).touches(kIdsParts);
  if (!idsChanged) {
    pendingFor_.reset();
    worker_->cancel();  // back to the shown ids (an edit undone): what was computing is stale
    if (base.selectedText != computedFor_.selectedText) {
      // Only the selection moved: the same layout, so the same text token in every design.
      for (DesignIds& d : shown_) d.selectedToken = selectedTextToken(d.ids, base.selectedText);
      computedFor_.selectedText = base.selectedText;
    }
    draw();
    return;
  }
  if (base.layout.tokenCount() <= backgroundTokens_) {
    pendingFor_.reset();
    worker_->cancel();
    std::vector<DesignIds> ids;
    std::vector<QString> errors;
    computeAll(base, designs_, ids, errors, nullptr);
    accept(base, std::move(ids), std::move(errors));
    return;
  }
  // Seconds for a large picture: on the worker, newest wins; the views say they are stale.
  if (!pendingFor_ || sceneChanges(*pendingFor_, base).touches(kIdsParts)) {
    pendingFor_ = base;
    worker_->request([this, base, designs = designs_](const LatestWorker::Context& job) {
      auto ids = std::make_shared<std::vector<DesignIds>>();
      auto errors = std::make_shared<std::vector<QString>>();
      computeAll(base, designs, *ids, *errors, &job.stop);
      if (job.stop) return;
      job.post([this, base, ids, errors] {
        pendingFor_.reset();
        accept(base, std::move(*ids), std::move(*errors));
      });
    });
  }
  for (PositionSpaceView* view : views_) view->setStale(true, computingNote());
}

QString CompareView::computingNote() const {
  // Invalid input says so first; else the newer scene's ids are still on the worker.
  return model_->isStale() ? QString() : tr("computing\xe2\x80\xa6");
}

void CompareView::accept(const Scene& scene, std::vector<DesignIds> ids,
                         std::vector<QString> errors) {
  ++computations_;
  shown_ = std::move(ids);
  errors_ = std::move(errors);
  computedFor_ = scene;
  computed_ = true;
  // The selection may have moved while the worker computed: the model's, on the same layout.
  const int selected = model_->validScene().selectedText;
  if (selected != computedFor_.selectedText) {
    for (DesignIds& d : shown_) d.selectedToken = selectedTextToken(d.ids, selected);
    computedFor_.selectedText = selected;
  }
  draw();
  emit computed();
}

void CompareView::draw() {
  const bool behind = pendingFor_.has_value();
  for (std::size_t i = 0; i < designs_.size(); ++i) {
    PositionSpaceView* view = views_[i];
    const DesignIds& d = shown_[i];
    if (errors_[i].isEmpty()) {
      ptds_[i] = d.ptd.ptd;
      view->showIds(d.ids, d.selectedToken, model_->selectedVisual());
      view->setTitle(QStringLiteral("%1\nPTD %2")  // two lines: a quadrant is narrow
                         .arg(QString::fromStdString(findDesign(designs_[i]).title()))
                         .arg(metricTitleText(d.ptd.ptd, d.ptd.nText, d.ptd.nVisual)));
    } else {
      ptds_[i] = std::numeric_limits<double>::quiet_NaN();
      view->setTitle(errors_[i]);
    }
    view->setStale(model_->isStale() || behind, behind ? computingNote() : QString());
    distances_[i] = view->camera()->GetDistance();
  }
}

void CompareView::followCamera(PositionSpaceView* source) {
  std::size_t src = 0;
  while (src < views_.size() && views_[src] != source) ++src;
  if (src == views_.size()) return;
  vtkCamera* from = source->camera();
  const double zoom = distances_[src] > 0 ? from->GetDistance() / distances_[src] : 1.0;
  distances_[src] = from->GetDistance();
  double dir[3], up[3];
  from->GetDirectionOfProjection(dir);
  from->GetViewUp(up);
  for (std::size_t i = 0; i < views_.size(); ++i) {
    if (i == src) continue;
    vtkCamera* cam = views_[i]->camera();
    const double* fp = cam->GetFocalPoint();
    const double d = cam->GetDistance() * zoom;
    cam->SetPosition(fp[0] - dir[0] * d, fp[1] - dir[1] * d, fp[2] - dir[2] * d);
    cam->SetViewUp(up);
    distances_[i] = d;
    views_[i]->resetClippingRange();
    views_[i]->update();
  }
}

void CompareView::setColorMode(ColorMode mode) {
  for (PositionSpaceView* v : views_) v->setColorMode(mode);
}

void CompareView::setDark(bool dark) {
  for (PositionSpaceView* v : views_) v->setDark(dark);
}

void CompareView::applyPreset(CameraPreset preset) {
  for (std::size_t i = 0; i < views_.size(); ++i) {
    views_[i]->applyPreset(preset);
    distances_[i] = views_[i]->camera()->GetDistance();
  }
}

}  // namespace ropescope::ui
