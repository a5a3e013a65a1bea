#include "space/scene_space_view.h"

#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"
#include "style/metric_text.h"

namespace ropescope::ui {

SceneSpaceView::SceneSpaceView(SceneModel* model, QWidget* parent)
    : PositionSpaceView(parent), model_(model), shown_(new WhenShown(this, [this] { refresh(); })) {
  connect(model_, &SceneModel::changed, this, &SceneSpaceView::onSceneChanged);
  connect(model_, &SceneModel::selectionChanged, this, [this] { shown_->request(); });
  refresh();
}

bool SceneSpaceView::dirty() const {
  return shown_->dirty();
}

void SceneSpaceView::onSceneChanged(SceneChanges parts) {
  pending_ |= parts;
  shown_->request();
}

void SceneSpaceView::refresh() {
  const SceneChanges parts = pending_;
  pending_ = SceneChanges();
  const SceneMetrics& m = model_->metrics();
  const Scene& valid = model_->validScene();
  if (parts.touches(ScenePart::Layout | ScenePart::ImageGrid)) setLayout(valid.layout);
  // Ids equal to the shown ones redraw only the selection: known so when no part the ids read
  // changed, else found by comparing them (PositionSpaceView::showIds).
  const long visual = model_->selectedVisual();
  if (parts.touches(kIdsParts) || !showSelection(m.selectedToken, visual))
    showIds(m.ids, m.selectedToken, visual);
  setStale(model_->isStale());
  if (!parts.touches(kIdsParts)) return;  // the title reads the ids and PTD only
  QString designTitle = QString::fromStdString(valid.design);
  try {
    designTitle = QString::fromStdString(
        findDesign(m.designUsed.empty() ? valid.design : m.designUsed).title());
  } catch (const std::exception&) {
  }
  // An n/a's reason on a line of its own: the view is narrow on a laptop screen.
  QString title = QStringLiteral("%1    PTD %2").arg(designTitle, metricText(m.ptd.ptd));
  const std::string missing = missingTokensText(m.ptd.nText, m.ptd.nVisual);
  if (!missing.empty()) title += QStringLiteral("\n(%1)").arg(QString::fromStdString(missing));
  if (valid.design == "circle" && valid.ageLayer >= 0)
    title += tr("    (AGE layer %1)").arg(valid.ageLayer);
  setTitle(title);
}

}  // namespace ropescope::ui
