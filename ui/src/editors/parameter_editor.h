// An editor for one ParameterSpec of a design: slider plus numeric field, check box or combo,
// with the core's error message for that parameter shown in red underneath.
#pragma once

#include <QWidget>

#include "ropescope/parameters.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace ropescope::ui {

class ParameterEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ParameterEditor(ParameterSpec spec, QWidget* parent = nullptr);
  ~ParameterEditor() override;

  const ParameterSpec& spec() const { return spec_; }
  // Shows a value from the model without emitting edited().
  void setValue(double value);
  double value() const { return value_; }
  // Empty message hides the error line.
  void setError(const QString& message);
  QString error() const;

 signals:
  void edited(double value);
  // The slider is pressed and released: the edits between are one gesture (one undo step,
  // SceneModel::beginGesture). An editor destroyed mid-drag finishes its gesture.
  void dragStarted();
  void dragFinished();

 private:
  bool logSlider() const;
  double logSliderLow() const;  // the value at the log slider's left end
  int sliderPosition(double value) const;
  double sliderValue(int position) const;
  void commit(double value);

  ParameterSpec spec_;
  double value_ = 0.0;
  QSlider* slider_ = nullptr;
  QDoubleSpinBox* spin_ = nullptr;
  QCheckBox* check_ = nullptr;
  QComboBox* combo_ = nullptr;
  QLabel* error_ = nullptr;
};

}  // namespace ropescope::ui
