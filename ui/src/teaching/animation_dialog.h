// File → Export animation…: parameter, range, frames, size and output of an animation, checked
// by the same parser as the command line (the message shows beside the fields), then rendered
// with a cancellable progress dialog.
#pragma once

#include <QDialog>

#include <string>

#include "teaching/animation.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ropescope::ui {

class SceneModel;

class AnimationDialog : public QDialog {
  Q_OBJECT

 public:
  explicit AnimationDialog(SceneModel* model, QWidget* parent = nullptr);

  // The spec text the fields describe, e.g. "distance_h:0:256".
  QString specText() const;
  // Checks the fields; on a problem shows it beside them and returns false.
  bool validate();
  // Validates and renders with a progress dialog; true when every frame was written.
  bool exportNow();
  QString message() const;

  // For tests and scripted use.
  void setSpec(const QString& parameter, double from, double to, int frames);
  void setOutput(const QString& path);
  void setFrameSize(QSize size);

 private:
  void parameterChanged();
  static QString dialogWording(std::string text);
  void showMessage(const QString& text);
  void browse();

  SceneModel* model_;
  QComboBox* parameter_ = nullptr;
  QDoubleSpinBox* from_ = nullptr;
  QDoubleSpinBox* to_ = nullptr;
  QSpinBox* frames_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QSpinBox* delay_ = nullptr;
  QLineEdit* output_ = nullptr;
  QLabel* message_ = nullptr;
};

}  // namespace ropescope::ui
