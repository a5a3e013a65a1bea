// The Principles tab (principles_view.h): core's verdict grid of the scene's design and every
// design, recomputed when the ids or the rotary change.
#include "charts/principles_view.h"

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <atomic>
#include <memory>
#include <utility>

#include "charts/grid_table.h"
#include "ropescope/principles_report.h"

namespace ropescope::ui {

PrinciplesView::PrinciplesView(SceneModel* model, QWidget* parent) : SceneTab(model, parent) {
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
  Setup setup;
  // The verdicts of `scene`, or why core refused it; `stop` (a worker's job went stale) ends the
  // judging between two designs.
  setup.compute = [this](const Scene& scene, long long, const std::atomic<bool>* stop) {
    auto rows = std::make_shared<std::vector<PrinciplesVerdict>>();
    auto error = std::make_shared<QString>();
    Progress progress;
    if (stop) progress.cancel = [stop] { return stop->load(); };
    try {
      *rows = principlesPanelRows(scene, progress);
    } catch (const std::exception& e) {
      rows->clear();
      *error = QString::fromStdString(e.what());
    }
    return [this, rows, error] {
      rows_ = std::move(*rows);
      error_ = std::move(*error);
    };
  };
  setup.backgroundTokens = kBackgroundTokens;
  setup.priority = LatestWorker::Priority::Low;
  start(std::move(setup));
}

PrinciplesView::~PrinciplesView() = default;

void PrinciplesView::draw() {
  const QString updating = updatingMark();
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
