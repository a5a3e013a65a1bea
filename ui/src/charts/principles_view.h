// The Principles tab: the verdicts of the three design principles of multimodal RoPE
// (principles.h, arXiv 2510.23095) for the shown scene's design and every design of the registry
// side by side, as core writes them (principlesGrid): the lines `ropescope principles` prints,
// each verdict with its mark and the number behind it, n/a with the reason where undefined.
// A large scene computes on a worker.
#pragma once

#include <QWidget>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "ropescope/principles.h"
#include "ropescope/scene.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ropescope::ui {

class SceneModel;
class LatestWorker;
class WhenShown;

class PrinciplesView : public QWidget {
  Q_OBJECT

 public:
  explicit PrinciplesView(SceneModel* model, QWidget* parent = nullptr);
  ~PrinciplesView() override;

  // Scenes of more tokens than this compute on the worker (default kBackgroundTokens; tests).
  void setBackgroundTokens(std::size_t tokens) { backgroundTokens_ = tokens; }

  // The verdicts shown (principlesPanelRows; empty when core refused the scene: error()).
  const std::vector<PrinciplesVerdict>& rows() const { return rows_; }
  const QString& error() const { return error_; }
  bool pending() const { return pendingFor_.has_value(); }
  bool settled() const;
  int computations() const { return computations_; }
  QTableWidget* table() const { return table_; }
  QLabel* note() const { return note_; }
  QPushButton* exportButton() const { return export_; }

  // Every design's ids over the layout: a few designs' worth of the ids of the scene.
  static constexpr std::size_t kBackgroundTokens = 16384;

 signals:
  void computed();

 private:
  void refresh();
  void accept(const Scene& scene, std::vector<PrinciplesVerdict> rows, QString error);
  void draw();
  void exportCsv();

  SceneModel* model_;
  QLabel* note_;
  QTableWidget* table_;
  QPushButton* export_;
  std::vector<PrinciplesVerdict> rows_;
  QString error_;
  std::optional<Scene> computedFor_;
  std::optional<Scene> pendingFor_;
  std::size_t backgroundTokens_ = kBackgroundTokens;
  int computations_ = 0;
  WhenShown* shown_ = nullptr;
  std::unique_ptr<LatestWorker> worker_;  // last: joined first
};

}  // namespace ropescope::ui
