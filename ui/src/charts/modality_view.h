// The Modalities tab: PTD and bias spread between every two modalities of the scene (text,
// image, video, audio) as a table and as two bar charts, from SceneModel::modalityMetrics().
#pragma once

#include <QWidget>

class QTableWidget;
class QLabel;

namespace ropescope::ui {

class SceneModel;
class ChartView;
class WhenShown;

class ModalityView : public QWidget {
  Q_OBJECT

 public:
  explicit ModalityView(SceneModel* model, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  ChartView* ptdChart() const { return ptdView_; }
  ChartView* biasChart() const { return biasView_; }
  void setDark(bool dark);

 private:
  void refresh();

  SceneModel* model_;
  QLabel* note_;
  QTableWidget* table_;
  ChartView* ptdView_;
  ChartView* biasView_;
  bool dark_ = true;
  WhenShown* shown_ = nullptr;  // model changes wait for a hidden tab's next show
};

}  // namespace ropescope::ui
