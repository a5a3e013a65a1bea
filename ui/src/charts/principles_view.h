// The Principles tab: the verdicts of the three design principles of multimodal RoPE
// (principles.h, arXiv 2510.23095) for the shown scene's design and every design of the registry
// side by side, as core writes them (principlesGrid): the lines `ropescope principles` prints,
// each verdict with its mark and the number behind it, n/a with the reason where undefined.
// A large scene computes on a worker.
#pragma once

#include <cstddef>
#include <vector>

#include "charts/scene_tab.h"
#include "ropescope/principles.h"
#include "ropescope/scene.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ropescope::ui {

class PrinciplesView : public SceneTab {
  Q_OBJECT

 public:
  explicit PrinciplesView(SceneModel* model, QWidget* parent = nullptr);
  ~PrinciplesView() override;

  // The verdicts shown (principlesPanelRows; empty when core refused the scene: error()).
  const std::vector<PrinciplesVerdict>& rows() const { return rows_; }
  const QString& error() const { return error_; }
  QTableWidget* table() const { return table_; }
  QLabel* note() const { return note_; }
  QPushButton* exportButton() const { return export_; }

  // Every design's ids over the layout: a few designs' worth of the ids of the scene.
  static constexpr std::size_t kBackgroundTokens = 16384;

 private:
  void draw() override;
  void exportCsv();

  QLabel* note_;
  QTableWidget* table_;
  QPushButton* export_;
  std::vector<PrinciplesVerdict> rows_;
  QString error_;
};

}  // namespace ropescope::ui
