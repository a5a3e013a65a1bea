// The phasor view: for one relative displacement Δ, every rotary pair as a unit vector turned by
// its phase (a clock face per pair, coloured by the axis the plan gives it), the running sums
// S_j drawn head to tail (the spiral), and the lengths |S_j| whose mean is RoFormer's bound
// U(Δ). A slider moves Δ along t, h, w or all three; "selected tokens" uses the text token and
// the picked visual token of the scene. Draws what core's computePhasor() returns.
#pragma once

#include <QImage>
#include <QWidget>

#include "ropescope/phasor.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace ropescope::ui {

class FormulaPanel;
class WhenShown;
class SceneModel;

// Paints a phasor picture into `rect` (no widget needed: the animation export uses it too).
void paintPhasor(QPainter& painter, const QRect& rect, const Phasor& phasor, bool dark,
                 const QString& caption);

// The one-line caption over a phasor picture: Δ, U(Δ) and b(Δ).
QString phasorCaption(const Phasor& phasor);

class PhasorCanvas : public QWidget {
  Q_OBJECT
 public:
  explicit PhasorCanvas(QWidget* parent = nullptr);
  void setPhasor(const Phasor& phasor, const QString& caption);
  void setDark(bool dark);
  QSize sizeHint() const override { return {520, 460}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  Phasor phasor_;
  QString caption_;
  bool dark_ = true;
};

class PhasorView : public QWidget {
  Q_OBJECT

 public:
  // Directions of the slider, in the order of the combo box.
  enum class Direction { T, H, W, Text, SelectedTokens };

  explicit PhasorView(SceneModel* model, QWidget* parent = nullptr);

  void setDistance(int distance);
  int distance() const;
  void setDirection(Direction direction);
  Direction direction() const;
  // The displacement of the view's current phasor (what an export of the phasor figure draws),
  // taking in model changes that wait for the hidden view's next show.
  Id3 delta() const;
  // Whether model changes wait for the view's next show (model/when_shown.h).
  bool dirty() const;
  void setDark(bool dark);

  // What the view shows now (for tests and the formula panel).
  const Phasor& phasor() const { return phasor_; }
  QString readout() const;
  PhasorCanvas* canvas() const { return canvas_; }
  FormulaPanel* formulas() const { return formulas_; }
  // The picture at a given size, as exported in animations.
  QImage renderImage(QSize size) const;

 signals:
  void phasorChanged();

 private:
  void recompute();
  QString caption() const;

  SceneModel* model_;
  WhenShown* shown_ = nullptr;
  QComboBox* direction_ = nullptr;
  QSlider* slider_ = nullptr;
  QSpinBox* spin_ = nullptr;
  QLabel* readout_ = nullptr;
  QLabel* note_ = nullptr;
  PhasorCanvas* canvas_ = nullptr;
  FormulaPanel* formulas_ = nullptr;
  Phasor phasor_;
  bool dark_ = true;
};

}  // namespace ropescope::ui
