// The Budget tab (budget_view.h): core's id budget of the shown scene as a chart of the largest
// id per axis along the sequence and two tables, recomputed when the ids or the rotary change.
#include "charts/budget_view.h"

#include <QChart>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

#include "charts/chart_view.h"
#include "charts/grid_table.h"
#include "figures/figure_charts.h"
#include "ropescope/id_budget_report.h"
#include "style/scrolling.h"

namespace ropescope::ui {

namespace {

// Room for the title, the legend, a readable id axis and its title at 1366x768.
constexpr int kBudgetChartMinimumHeight = 300;

}  // namespace

BudgetView::BudgetView(SceneModel* model, QWidget* parent) : SceneTab(model, parent) {
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
  chart_->setMinimumHeight(kBudgetChartMinimumHeight);
  layout->addWidget(chart_, 1);
  axisTable_ = makeGridTable(QStringLiteral("budgetAxisTable"));
  layout->addWidget(axisTable_);
  totalsTable_ = makeGridTable(QStringLiteral("budgetTotalsTable"));
  layout->addWidget(totalsTable_);
  outer->addWidget(scrolling(body, true));
  Setup setup;
  // The budget of `scene` (its design, plan and rope) at the model's trained length, or why
  // core refused it.
  setup.compute = [this](const Scene& scene, long long configMax, const std::atomic<bool>*) {
    auto budget = std::make_shared<std::optional<IdBudget>>();
    auto error = std::make_shared<QString>();
    try {
      *budget = sceneIdBudget(scene, configMax, 0);
    } catch (const std::exception& e) {
      *error = QString::fromStdString(e.what());
    }
    return [this, budget, error] {
      budget_ = std::move(*budget);
      error_ = std::move(*error);
    };
  };
  setup.key = [this](const Scene& scene) { return configMax(scene); };
  setup.backgroundTokens = kBackgroundTokens;
  start(std::move(setup));
}

BudgetView::~BudgetView() = default;

long long BudgetView::configMax(const Scene& scene) const {
  return !scene.model.empty() && scene.model == maxModel_ ? maxPositions_ : 0;
}

void BudgetView::setModelMaxPositions(const std::string& model, long long maxPositions) {
  maxModel_ = model;
  maxPositions_ = maxPositions;
  request();
}

void BudgetView::setDark(bool dark) {
  dark_ = dark;
  draw();
}

void BudgetView::draw() {
  const QString updating = updatingMark();
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
