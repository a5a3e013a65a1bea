#include "charts/compare_view.h"

#include <QGridLayout>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <limits>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "model/scene_model.h"
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
    // Linked cameras: the designs' extents differ by orders of magnitude (hard spans the whole
    // sequence, circle a small ring), so one shared camera would shrink three views to dots.
    // Rotation and zoom are linked; each view keeps framing its own content.
    connect(view, &VtkView::cameraInteracted, this, [this, view] { followCamera(view); });
    connect(view, &PositionSpaceView::textTokenClicked, model_, &SceneModel::setSelectedText);
    connect(view, &PositionSpaceView::visualTokenClicked, model_, &SceneModel::setSelectedVisual);
  }
  ptds_.assign(designs_.size(), std::numeric_limits<double>::quiet_NaN());
  distances_.assign(designs_.size(), 0.0);
  refreshTimer_ = new QTimer(this);
  refreshTimer_->setSingleShot(true);
  refreshTimer_->setInterval(0);
  connect(refreshTimer_, &QTimer::timeout, this, [this] {
    if (dirty_ && isVisible()) refresh();
  });
  auto later = [this] {
    dirty_ = true;
    if (isVisible()) refreshTimer_->start();
  };
  // Every change redraws (the stale marks, the selection); refresh() recomputes the four
  // designs' ids only when a part they read changed.
  connect(model_, &SceneModel::changed, this, later);
  connect(model_, &SceneModel::selectionChanged, this, later);
}

CompareView::~CompareView() = default;

void CompareView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (dirty_) refresh();
}

void CompareView::refresh() {
  dirty_ = false;
  refreshTimer_->stop();
  const Scene& base = model_->validScene();
  if (!computed_ || sceneChanges(computedFor_, base).touches(kIdsParts)) {
    ++computations_;
    // Fresh vectors, not reuse: a huge scene's capacity must not outlive it.
    shown_ = std::vector<DesignIds>(designs_.size());
    errors_ = std::vector<QString>(designs_.size());
    const int threads = std::max(1, QThread::idealThreadCount());
    for (std::size_t i = 0; i < designs_.size(); ++i) {
      // Each design with its defaults, except the scene's own design (the rule of compareDesigns).
      const Scene scene = sceneUnderDesign(base, designs_[i]);
      try {
        shown_[i] = computeDesignIds(scene, threads);
      } catch (const std::exception& e) {
        errors_[i] = QStringLiteral("%1: %2").arg(QString::fromStdString(designs_[i]),
                                                  QString::fromStdString(e.what()));
      }
    }
    computedFor_ = base;
    computed_ = true;
  } else if (base.selectedText != computedFor_.selectedText) {
    // Only the selection moved: the same layout, so the same text token in every design.
    for (DesignIds& d : shown_) d.selectedToken = selectedTextToken(d.ids, base.selectedText);
    computedFor_.selectedText = base.selectedText;
  }
  for (std::size_t i = 0; i < designs_.size(); ++i) {
    PositionSpaceView* view = views_[i];
    const DesignIds& d = shown_[i];
    if (errors_[i].isEmpty()) {
      ptds_[i] = d.ptd.ptd;
      view->showIds(d.ids, d.selectedToken, model_->selectedVisual());
      view->setTitle(QStringLiteral("%1    PTD %2")
                         .arg(QString::fromStdString(findDesign(designs_[i]).title()))
                         .arg(metricTitleText(d.ptd.ptd, d.ptd.nText, d.ptd.nVisual)));
    } else {
      ptds_[i] = std::numeric_limits<double>::quiet_NaN();
      view->setTitle(errors_[i]);
    }
    view->setStale(model_->isStale());
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
    views_[i]->renderer()->ResetCameraClippingRange();
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
