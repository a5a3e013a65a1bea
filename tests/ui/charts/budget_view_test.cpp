// The Budget and Principles tabs: each shows what core returns for the shown scene (compared
// with core called directly), follows a change of design, reads n/a with core's reason on a
// text-only scene (never 0), computes a large scene on its worker, and exports its table as CSV.
#include <gtest/gtest.h>

#include <QChart>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <string>
#include <vector>

#include "charts/budget_view.h"
#include "charts/chart_view.h"
#include "charts/grid_table.h"
#include "charts/principles_view.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/id_budget_report.h"
#include "ropescope/layout.h"
#include "ropescope/principles_report.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

constexpr long long kTrained = 64;  // the test model's max_position_embeddings

Scene layoutScene(const std::string& spec, const std::string& design = "mrope") {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(spec);
  setDesign(s, design);
  s.model = "test-model";
  return s;
}

// Every cell of `table` against `grid` as core wrote it: the text (with the verdict's mark),
// the tooltip (the reason for n/a), the line and column names.
void expectGrid(const QTableWidget* table, const ReportGrid& grid) {
  ASSERT_EQ(table->rowCount(), static_cast<int>(grid.lines.size()));
  ASSERT_EQ(table->columnCount(), static_cast<int>(grid.columns.size()));
  for (int c = 0; c < table->columnCount(); ++c)
    EXPECT_EQ(table->horizontalHeaderItem(c)->text().toStdString(),
              grid.columns[static_cast<std::size_t>(c)]);
  for (int r = 0; r < table->rowCount(); ++r) {
    const GridLine& line = grid.lines[static_cast<std::size_t>(r)];
    EXPECT_EQ(table->verticalHeaderItem(r)->text().toStdString(), line.name);
    for (int c = 0; c < table->columnCount(); ++c) {
      const GridCell& cell = line.cells[static_cast<std::size_t>(c)];
      const QTableWidgetItem* item = table->item(r, c);
      ASSERT_NE(item, nullptr) << line.name << " " << c;
      EXPECT_EQ(item->text(), gridCellText(cell)) << line.name;
      EXPECT_EQ(item->toolTip().toStdString(), cell.undefined.empty() ? cell.note : cell.undefined);
    }
  }
}

int rowOf(const QTableWidget* table, const QString& name) {
  for (int r = 0; r < table->rowCount(); ++r)
    if (table->verticalHeaderItem(r)->text() == name) return r;
  return -1;
}

struct ShownBudget {
  SceneModel model;
  BudgetView view{&model};
  explicit ShownBudget(const Scene& scene) {
    view.setModelMaxPositions("test-model", kTrained);
    model.setScene(scene);
    view.resize(600, 900);
    view.show();
  }
};

}  // namespace

TEST(BudgetView, ShowsTheBudgetCoreComputes) {
  ShownBudget shown(layoutScene("t5,i6x8,t7"));
  BudgetView& view = shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  const IdBudget want = sceneIdBudget(shown.model.validScene(), kTrained, 0);
  ASSERT_TRUE(view.budget().has_value());
  EXPECT_EQ(view.budget()->largestId, want.largestId);
  EXPECT_EQ(view.budget()->ropeDelta, want.ropeDelta);
  ASSERT_TRUE(want.trained.known());  // from the model's max_position_embeddings
  EXPECT_EQ(want.trained.tokens, kTrained);
  expectGrid(view.axisTable(), budgetAxisGrid(want));
  expectGrid(view.totalsTable(), budgetTotalsGrid(want));
  // The chart: one curve per axis t, h, w, each ending at core's largest id on the axis.
  const QList<QAbstractSeries*> series = view.chart()->chart()->series();
  ASSERT_EQ(series.size(), 3);
  for (int a = 0; a < 3; ++a) {
    auto* line = qobject_cast<QLineSeries*>(series[a]);
    ASSERT_NE(line, nullptr);
    ASSERT_EQ(line->count(), static_cast<int>(want.curveTokens.size()));
    EXPECT_EQ(line->at(line->count() - 1).x(), static_cast<double>(want.tokens));
    EXPECT_EQ(line->at(line->count() - 1).y(), want.maxId[a]);
  }
  // The YaRN factor and rope_deltas are the totals table's, as core wrote them.
  const int yarn = rowOf(view.totalsTable(), QStringLiteral("YaRN factor (ids)"));
  ASSERT_GE(yarn, 0);
  EXPECT_EQ(view.totalsTable()->item(yarn, 0)->text().toStdString(),
            readableNumber(*want.yarnFactorFromIds));
}

TEST(BudgetView, FollowsTheDesign) {
  ShownBudget shown(layoutScene("t5,i6x8,t7"));
  BudgetView& view = shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  const double before = view.budget()->largestId;
  const int runs = view.computations();
  shown.model.edit([](Scene& s) { setDesign(s, "hard"); });
  ASSERT_TRUE(waitUntil([&] { return view.settled(); }));
  EXPECT_GT(view.computations(), runs);
  const IdBudget want = sceneIdBudget(shown.model.validScene(), kTrained, 0);
  EXPECT_EQ(want.design, "hard");
  EXPECT_EQ(view.budget()->design, "hard");
  // Vanilla ids count every token: 5 + 48 + 7 = 60 tokens, largest id 59 (M-RoPE's is less).
  EXPECT_EQ(want.largestId, 59.0);
  EXPECT_LT(before, want.largestId);
  EXPECT_EQ(view.budget()->largestId, want.largestId);
  expectGrid(view.axisTable(), budgetAxisGrid(want));
  // A selection click recomputes nothing.
  const int after = view.computations();
  shown.model.setSelectedText(2);
  EXPECT_EQ(view.computations(), after);
}

TEST(BudgetView, TextOnlyWithoutATrainedLengthReadsNotApplicable) {
  Scene s = layoutScene("t40");
  s.model.clear();  // no model: no trained length
  ShownBudget shown(s);
  BudgetView& view = shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  const IdBudget want = sceneIdBudget(shown.model.validScene(), 0, 0);
  ASSERT_FALSE(want.trained.known());
  ASSERT_FALSE(want.trained.reason.empty());
  expectGrid(view.axisTable(), budgetAxisGrid(want));
  for (const QString& name :
       {QStringLiteral("distance / trained"), QStringLiteral("share outside trained")}) {
    const int row = rowOf(view.axisTable(), name);
    ASSERT_GE(row, 0) << name.toStdString();
    for (int c = 0; c < view.axisTable()->columnCount(); ++c) {
      EXPECT_EQ(view.axisTable()->item(row, c)->text(), QStringLiteral("n/a"));
      EXPECT_EQ(view.axisTable()->item(row, c)->toolTip().toStdString(), want.trained.reason);
    }
  }
  const int yarn = rowOf(view.totalsTable(), QStringLiteral("YaRN factor (ids)"));
  ASSERT_GE(yarn, 0);
  EXPECT_EQ(view.totalsTable()->item(yarn, 0)->text(), QStringLiteral("n/a"));
  EXPECT_FALSE(view.totalsTable()->item(yarn, 0)->toolTip().isEmpty());
}

TEST(BudgetView, ALargeSceneComputesOnTheWorker) {
  ShownBudget shown(layoutScene("t5,i6x8,t7"));
  BudgetView& view = shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  view.setBackgroundTokens(0);  // every scene is "large"
  shown.model.edit([](Scene& s) { s.layout = parseLayoutSpec("t9,v2x4x4,t3"); });
  // The edit returned before the budget: the tab says it is updating, and keeps the last one.
  EXPECT_TRUE(view.pending());
  EXPECT_NE(view.note()->text().indexOf(QStringLiteral("updating")), -1);
  ASSERT_TRUE(waitUntil([&] { return view.settled(); }));
  const IdBudget want = sceneIdBudget(shown.model.validScene(), kTrained, 0);
  EXPECT_EQ(view.budget()->tokens, 44u);
  EXPECT_EQ(view.budget()->largestId, want.largestId);
  expectGrid(view.totalsTable(), budgetTotalsGrid(want));
}

TEST(BudgetView, ExportsBothTablesAsCsv) {
  ShownBudget shown(layoutScene("t5,i6x8,t7"));
  BudgetView& view = shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("budget.csv"));
  setFileDialogHook([&](const FileDialogRequest&) { return QStringList{path}; });
  view.exportButton()->click();
  setFileDialogHook({});
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const std::string csv = f.readAll().toStdString();
  const IdBudget want = sceneIdBudget(shown.model.validScene(), kTrained, 0);
  EXPECT_EQ(csv, gridsCsv({budgetAxisGrid(want), budgetTotalsGrid(want)}));
  EXPECT_EQ(csv.rfind("quantity,column,value,verdict,undefined\n", 0), 0u) << csv.substr(0, 80);
  EXPECT_NE(csv.find("rope_deltas,value," + readableNumber(want.ropeDelta)), std::string::npos);
}

TEST(PrinciplesView, ShowsTheVerdictsCoreGivesForEveryDesign) {
  SceneModel model;
  model.setScene(layoutScene("t6,i4x6,t6"));
  PrinciplesView view(&model);
  view.resize(800, 700);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  const std::vector<PrinciplesVerdict> want = principlesPanelRows(model.validScene());
  ASSERT_EQ(view.rows().size(), want.size());
  EXPECT_EQ(view.rows().front().label, want.front().label);
  EXPECT_EQ(want.front().design, "mrope");
  expectGrid(view.table(), principlesGrid(want));
  // The three verdict lines carry a mark: M-RoPE's coherence fails or passes as core says.
  const int coherence = rowOf(view.table(), QStringLiteral("position coherence"));
  ASSERT_GE(coherence, 0);
  ASSERT_NE(want.front().coherence.verdict, Verdict::Undefined);
  const QChar mark(want.front().coherence.verdict == Verdict::Pass ? 0x2713 : 0x2717);
  EXPECT_EQ(view.table()->item(coherence, 0)->text().at(0), mark);
  // A design change re-judges: the first column is the new design's.
  model.edit([](Scene& s) { setDesign(s, "hard"); });
  ASSERT_TRUE(waitUntil([&] { return view.settled(); }));
  const std::vector<PrinciplesVerdict> hard = principlesPanelRows(model.validScene());
  EXPECT_EQ(hard.front().design, "hard");
  expectGrid(view.table(), principlesGrid(hard));
}

TEST(PrinciplesView, ALargeSceneIsJudgedOnTheWorker) {
  SceneModel model;
  model.setScene(layoutScene("t6,i4x6,t6"));
  PrinciplesView view(&model);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  view.setBackgroundTokens(0);
  model.edit([](Scene& s) { s.layout = parseLayoutSpec("t4,v2x2x4,t4"); });
  EXPECT_TRUE(view.pending());
  EXPECT_NE(view.note()->text().indexOf(QStringLiteral("updating")), -1);
  // Two edits in a row: the first job is stale; the tab ends on the second scene's verdicts.
  model.edit([](Scene& s) { setDesign(s, "hard"); });
  ASSERT_TRUE(waitUntil([&] { return view.settled(); }));
  expectGrid(view.table(), principlesGrid(principlesPanelRows(model.validScene())));
  EXPECT_EQ(view.rows().front().design, "hard");
}

TEST(PrinciplesView, TextOnlyReadsNotApplicableWithTheReason) {
  SceneModel model;
  model.setScene(layoutScene("t30"));
  PrinciplesView view(&model);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  const std::vector<PrinciplesVerdict> want = principlesPanelRows(model.validScene());
  expectGrid(view.table(), principlesGrid(want));
  const int interval = rowOf(view.table(), QStringLiteral("modality interval"));
  ASSERT_GE(interval, 0);
  for (int c = 0; c < view.table()->columnCount(); ++c) {
    const QTableWidgetItem* item = view.table()->item(interval, c);
    EXPECT_EQ(item->text(), QStringLiteral("n/a"));
    EXPECT_EQ(item->toolTip().toStdString(),
              want[static_cast<std::size_t>(c)].coherence.intervalUndefined);
    EXPECT_FALSE(item->toolTip().isEmpty());
  }
}

TEST(PrinciplesView, ExportsTheTableAsCsv) {
  SceneModel model;
  model.setScene(layoutScene("t6,i4x6,t6"));
  PrinciplesView view(&model);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible() && view.settled(); }));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("principles.csv"));
  setFileDialogHook([&](const FileDialogRequest&) { return QStringList{path}; });
  view.exportButton()->click();
  setFileDialogHook({});
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(f.readAll().toStdString(),
            gridsCsv({principlesGrid(principlesPanelRows(model.validScene()))}));
}

TEST(MainWindow, BudgetAndPrinciplesTabsFollowTheScene) {
  MainWindow w;
  w.show();
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);
  auto* budget = w.findChild<BudgetView*>(QStringLiteral("budgetView"));
  auto* principles = w.findChild<PrinciplesView*>(QStringLiteral("principlesView"));
  ASSERT_NE(budget, nullptr);
  ASSERT_NE(principles, nullptr);
  EXPECT_EQ(tabs->tabText(tabs->indexOf(budget)), QStringLiteral("Budget"));
  EXPECT_EQ(tabs->tabText(tabs->indexOf(principles)), QStringLiteral("Principles"));
  w.model()->setScene(layoutScene("t3,i2x2,t3"));
  tabs->setCurrentWidget(budget);
  ASSERT_TRUE(waitUntil([&] { return budget->settled(); }));
  EXPECT_EQ(budget->budget()->tokens, 10u);
  tabs->setCurrentWidget(principles);
  ASSERT_TRUE(waitUntil([&] { return principles->settled(); }));
  EXPECT_EQ(principles->table()->columnCount(),
            static_cast<int>(principlesPanelRows(w.model()->validScene()).size()));
  // File -> Open model: the budget reads the model's max_position_embeddings (Qwen3-VL-8B's
  // config gives 262144 and no original_max_position_embeddings), as `ropescope budget --model`.
  tabs->setCurrentWidget(budget);
  ASSERT_TRUE(w.openModel(QStringLiteral("qwen3-vl-8b")));
  ASSERT_TRUE(waitUntil([&] { return budget->settled(); }));
  ASSERT_TRUE(budget->budget().has_value());
  EXPECT_EQ(budget->budget()->trained.tokens, 262144);
  const IdBudget want = sceneIdBudget(w.model()->validScene(), 262144, 0);
  expectGrid(budget->axisTable(), budgetAxisGrid(want));
}
