// The Budget tab: the id budget of the shown scene (id_budget.h) as core computes it: the
// largest position id per axis against the tokens so far (one curve per axis), the per-axis
// table (largest distance, it over the trained length, pairs outside the trained range, the
// discrimination bound) and the whole sequence's (rope_deltas, the YaRN factor that would cover
// the layout, ...), n/a with the reason where undefined. A large scene computes on a worker.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "charts/scene_tab.h"
#include "ropescope/id_budget.h"
#include "ropescope/scene.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ropescope::ui {

class ChartView;

class BudgetView : public SceneTab {
  Q_OBJECT

 public:
  explicit BudgetView(SceneModel* model, QWidget* parent = nullptr);
  ~BudgetView() override;

  // The loaded model's max_position_embeddings (model_config.h), read as the trained length's
  // last source while the shown scene is that model's (Scene::model == `model`); 0 for none.
  void setModelMaxPositions(const std::string& model, long long maxPositions);
  void setDark(bool dark);

  // What the tab shows: the budget (nullopt before the first, or when core refused the scene:
  // error() says why) and the scene it is of.
  const std::optional<IdBudget>& budget() const { return budget_; }
  const QString& error() const { return error_; }
  QTableWidget* axisTable() const { return axisTable_; }
  QTableWidget* totalsTable() const { return totalsTable_; }
  ChartView* chart() const { return chart_; }
  QLabel* note() const { return note_; }
  QPushButton* exportButton() const { return export_; }
  // The model's max_position_embeddings the scene's budget reads (0 for none).
  long long configMax(const Scene& scene) const;

  // Large scenes go to the worker above this many tokens: sceneIdBudget is one pass over the
  // ids (about 0.1 s for a million tokens), the ids themselves cost more.
  static constexpr std::size_t kBackgroundTokens = 65536;

 private:
  void draw() override;
  void exportCsv();

  QLabel* note_;
  ChartView* chart_;
  QTableWidget* axisTable_;
  QTableWidget* totalsTable_;
  QPushButton* export_;
  std::optional<IdBudget> budget_;
  QString error_;
  std::string maxModel_;
  long long maxPositions_ = 0;
  bool dark_ = true;
};

}  // namespace ropescope::ui
