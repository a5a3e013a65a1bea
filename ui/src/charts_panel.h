// The metric charts linked to the scene: decay bound per axis, PTD and bias spread of every
// design, the selected text token's distance and bias profile, and the wavelength of every pair.
#pragma once

#include <QWidget>

class QBarSet;
class QAbstractBarSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;
class QBarCategoryAxis;

namespace ropescope::ui {

class FormulaPanel;
class SceneModel;

class ChartsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ChartsPanel(SceneModel* model, QWidget* parent = nullptr);

  void setDark(bool dark);
  // For tests: what the charts currently plot.
  int profilePointCount() const;
  long markedVisual() const;      // the visual token the profile chart marks, -1 for none
  int highlightedDesign() const;  // index of the highlighted bar, -1 for none
  bool showsStaleBanner() const;
  FormulaPanel* formulas() const { return formulas_; }

 private:
  void refresh();
  void refreshSelection();
  void refreshDesigns();
  void applyColors();
  QChart* makeChart(const QString& title);

  SceneModel* model_;
  bool dark_ = true;
  QLabel* staleBanner_ = nullptr;
  FormulaPanel* formulas_ = nullptr;

  QChart* decayChart_ = nullptr;
  QLineSeries* decay_[3] = {nullptr, nullptr, nullptr};
  QValueAxis* decayX_ = nullptr;
  QValueAxis* decayY_ = nullptr;

  QChart* ptdChart_ = nullptr;
  QChart* biasChart_ = nullptr;
  QAbstractBarSeries* ptdSeries_ = nullptr;
  QAbstractBarSeries* biasSeries_ = nullptr;
  QBarSet* ptdSet_ = nullptr;
  QBarSet* biasSet_ = nullptr;
  QBarCategoryAxis* ptdX_ = nullptr;
  QBarCategoryAxis* biasX_ = nullptr;
  QValueAxis* ptdY_ = nullptr;
  QValueAxis* biasY_ = nullptr;
  int highlighted_ = -1;

  QChart* profileChart_ = nullptr;
  QLineSeries* distance_ = nullptr;
  QLineSeries* bias_ = nullptr;
  QScatterSeries* marker_ = nullptr;
  QValueAxis* profileX_ = nullptr;
  QValueAxis* distanceY_ = nullptr;
  QValueAxis* biasY2_ = nullptr;
  long marked_ = -1;

  QChart* waveChart_ = nullptr;
  QScatterSeries* wave_[3] = {nullptr, nullptr, nullptr};
  QValueAxis* waveX_ = nullptr;
  QLogValueAxis* waveY_ = nullptr;
};

}  // namespace ropescope::ui
