// The Principles tab (principles_view.h): core's verdict grid of the scene's design and every
// design, recomputed when the ids or the rotary change.
#include "charts/principles_view.h"

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <atomic>
#include <utility>

#include "charts/grid_table.h"
#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/principles_report.h"
#include "ropescope/scene_changes.h"

namespace ropescope::ui {

namespace {

// `stop` (a worker's job went stale) ends the judging between two designs.
void verdictsOf(const Scene& scene, std::vector<PrinciplesVerdict>& rows, QString& error,
                const std::atomic<bool>* stop = nullptr) {
  Progress progress;
  if (stop) progress.cancel = [stop] { return stop->load(); };
  try {
    rows = principlesPanelRows(scene, progress);
  } catch (const std::exception& e) {
    rows.clear();
    error = QString::fromStdString(e.what());
  }
}

}  // namespace

PrinciplesView::PrinciplesView(SceneModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  const GridTabHeader header = makeGridTabHeader(
      QStringLiteral("principles"), tr("Write the verdict table to a CSV file, one row per cell"));
  note_ = header.note;
  export_ = header.exportButton;
  connect(export_, &QPushButton::clicked, this, &PrinciplesView::exportCsv);
  layout->addLayout(header.layout);
  // The table scrolls itself, both ways: a column per design.
  table_ = makeGridTable(QStringLiteral("principlesTable"));
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
  layout->addWidget(table_, 1);
  worker_ = std::make_unique<LatestWorker>(this, LatestWorker::Priority::Low);
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    if (!parts.empty() && !parts.touches(kBiasParts)) return;
    shown_->request();
  });
  shown_->request();
}

PrinciplesView::~PrinciplesView() = default;

bool PrinciplesView::settled() const {
  return !pendingFor_ && !shown_->dirty() && computedFor_ &&
         !sceneChanges(*computedFor_, model_->validScene()).touches(kBiasParts);
}

void PrinciplesView::refresh() {
  const Scene scene = model_->validScene();
  if (computedFor_ && !sceneChanges(*computedFor_, scene).touches(kBiasParts)) {
    pendingFor_.reset();
    worker_->cancel();
    draw();
    return;
  }
  if (scene.layout.tokenCount() <= backgroundTokens_) {
    pendingFor_.reset();
    worker_->cancel();
    std::vector<PrinciplesVerdict> rows;
    QString error;
    verdictsOf(scene, rows, error);
    accept(scene, std::move(rows), std::move(error));
    return;
  }
  pendingFor_ = scene;
  worker_->request([this, scene](const LatestWorker::Context& job) {
    auto rows = std::make_shared<std::vector<PrinciplesVerdict>>();
    auto error = std::make_shared<QString>();
    verdictsOf(scene, *rows, *error, &job.stop);
    if (job.stop) return;
    job.post([this, scene, rows, error] {
      pendingFor_.reset();
      accept(scene, std::move(*rows), std::move(*error));
    });
  });
  draw();
}

void PrinciplesView::accept(const Scene& scene, std::vector<PrinciplesVerdict> rows,
                            QString error) {
  ++computations_;
  computedFor_ = scene;
  rows_ = std::move(rows);
  error_ = std::move(error);
  draw();
  emit computed();
}

void PrinciplesView::draw() {
  const QString updating = pendingFor_ ? tr(" (updating\xe2\x80\xa6)") : QString();
  export_->setEnabled(!rows_.empty());
  if (rows_.empty()) {
    note_->setText((error_.isEmpty() ? tr("Judging the designs\xe2\x80\xa6")
                                     : tr("No verdict: %1").arg(error_)) +
                   updating);
    showGrid(table_, {});
    return;
  }
  note_->setText(tr("The design principles of arXiv 2510.23095 (position coherence, full "
                    "frequency use, the textual prior) for the scene's design, then every "
                    "design. Hover a cell for the reason.") +
                 updating);
  showGrid(table_, principlesGrid(rows_));
}

void PrinciplesView::exportCsv() {
  if (rows_.empty()) return;
  exportGridsCsv(this, QStringLiteral("principles.csv"), {principlesGrid(rows_)});
}

}  // namespace ropescope::ui
