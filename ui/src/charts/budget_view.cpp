// The Budget tab (budget_view.h): core's id budget of the shown scene as a chart of the largest
// id per axis along the sequence and two tables, recomputed when the ids or the rotary change.
#include "charts/budget_view.h"

#include <QChart>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

#include "charts/chart_view.h"
#include "charts/grid_table.h"
#include "figures/figure_charts.h"
#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/id_budget_report.h"
#include "ropescope/scene_changes.h"
#include "style/scrolling.h"

namespace ropescope::ui {

namespace {

// Room for the title, the legend, a readable id axis and its title at 1366x768.
constexpr int kChartMinimumHeight = 300;

// The budget of `scene` (its design, plan and rope), or why core refused it.
void budgetOf(const Scene& scene, long long configMax, std::optional<IdBudget>& budget,
              QString& error) {
  try {
    budget = sceneIdBudget(scene, configMax, 0);
  } catch (const std::exception& e) {
    budget.reset();
    error = QString::fromStdString(e.what());
  }
}

}  // namespace

BudgetView::BudgetView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* body = new QWidget;
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  const GridTabHeader header = makeGridTabHeader(
      QStringLiteral("budget"), tr("Write both tables to a CSV file, one row per cell"));
  note_ = header.note;
  export_ = header.exportButton;
  connect(export_, &QPushButton::clicked, this, &BudgetView::exportCsv);
  layout->addLayout(header.layout);
  chart_ = new ChartView(new QChart);
  chart_->setObjectName(QStringLiteral("budgetChart"));
  chart_->setRenderHint(QPainter::Antialiasing);
  chart_->setMinimumHeight(kChartMinimumHeight);
  layout->addWidget(chart_, 1);
  axisTable_ = makeGridTable(QStringLiteral("budgetAxisTable"));
  layout->addWidget(axisTable_);
  totalsTable_ = makeGridTable(QStringLiteral("budgetTotalsTable"));
  layout->addWidget(totalsTable_);
  outer->addWidget(scrolling(body, true));
  worker_ = std::make_unique<LatestWorker>(this);
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The budget reads the ids and the rotary, not the selection; the stale mark reads any.
    if (!parts.empty() && !parts.touches(kBiasParts)) return;
    shown_->request();
  });
  shown_->request();
}

BudgetView::~BudgetView() = default;

long long BudgetView::configMax(const Scene& scene) const {
  return !scene.model.empty() && scene.model == maxModel_ ? maxPositions_ : 0;
}

void BudgetView::setModelMaxPositions(const std::string& model, long long maxPositions) {
  maxModel_ = model;
  maxPositions_ = maxPositions;
  shown_->request();
}

void BudgetView::setDark(bool dark) {
  dark_ = dark;
  draw();
}

bool BudgetView::settled() const {
  const Scene& scene = model_->validScene();
  return !pendingFor_ && !shown_->dirty() && computedFor_ &&
         !sceneChanges(*computedFor_, scene).touches(kBiasParts) &&
         computedConfigMax_ == configMax(scene);
}

void BudgetView::refresh() {
  const Scene scene = model_->validScene();
  const long long max = configMax(scene);
  if (computedFor_ && !sceneChanges(*computedFor_, scene).touches(kBiasParts) &&
      computedConfigMax_ == max) {
    pendingFor_.reset();
    worker_->cancel();  // back to the shown budget (an edit undone)
    draw();
    return;
  }
  if (scene.layout.tokenCount() <= backgroundTokens_) {
    pendingFor_.reset();
    worker_->cancel();
    std::optional<IdBudget> budget;
    QString error;
    budgetOf(scene, max, budget, error);
    accept(scene, std::move(budget), std::move(error));
    return;
  }
  // A large scene: on the worker, newest wins; the tab says it is updating meanwhile.
  pendingFor_ = scene;
  worker_->request([this, scene, max](const LatestWorker::Context& job) {
    auto budget = std::make_shared<std::optional<IdBudget>>();
    auto error = std::make_shared<QString>();
    budgetOf(scene, max, *budget, *error);
    if (job.stop) return;
    job.post([this, scene, budget, error] {
      pendingFor_.reset();
      accept(scene, std::move(*budget), std::move(*error));
    });
  });
  draw();
}

void BudgetView::accept(const Scene& scene, std::optional<IdBudget> budget, QString error) {
  ++computations_;
  computedFor_ = scene;
  computedConfigMax_ = configMax(scene);
  budget_ = std::move(budget);
  error_ = std::move(error);
  draw();
  emit computed();
}

void BudgetView::draw() {
  const QString updating = pendingFor_ ? tr(" (updating\xe2\x80\xa6)") : QString();
  export_->setEnabled(budget_.has_value());
  if (!budget_) {
    note_->setText((error_.isEmpty() ? tr("Computing the id budget\xe2\x80\xa6")
                                     : tr("No id budget: %1").arg(error_)) +
                   updating);
    showGrid(axisTable_, {});
    showGrid(totalsTable_, {});
    return;
  }
  const IdBudget& b = *budget_;
  note_->setText(tr("Id budget of design %1 over %2 tokens: the largest position id per axis "
                    "against the tokens so far. Hover a cell for what it is, or why it is n/a.")
                     .arg(QString::fromStdString(b.design))
                     .arg(b.tokens) +
                 updating);
  showGrid(axisTable_, budgetAxisGrid(b));
  showGrid(totalsTable_, budgetTotalsGrid(b));
  // The one builder of the chart (figure_charts.h), in the window's theme, as the Modalities
  // tab does.
  QChart* chart = figure::budgetChart(b, FigureOptions{}).release();
  chart->setTheme(dark_ ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  figure::colorBudget(chart);  // setTheme resets the series' pens
  QChart* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

void BudgetView::exportCsv() {
  if (!budget_) return;
  exportGridsCsv(this, QStringLiteral("budget.csv"),
                 {budgetAxisGrid(*budget_), budgetTotalsGrid(*budget_)});
}

}  // namespace ropescope::ui
