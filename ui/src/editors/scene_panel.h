// The scene panel: layout, position design with its generated parameter editors, frequency plan
// with its rope scaling, AGE layer and the selected text token. Edits go straight to the SceneModel
// (no Apply button).
#pragma once

#include <QWidget>

#include <map>
#include <string>

#include "ropescope/scene_changes.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace ropescope::ui {

class ImageGridEditor;
class ParameterEditor;
class RopeEditor;
class SceneModel;
class SegmentListEditor;

class ScenePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ScenePanel(SceneModel* model, QWidget* parent = nullptr);

  // The red message shown beside a field ("layout", "alpha", "base", ...), empty if none;
  // "" names the panel-wide message for errors without a field.
  QString errorFor(const QString& field) const;
  ParameterEditor* parameterEditor(const std::string& key) const;
  SegmentListEditor* segmentEditor() const { return segments_; }
  ImageGridEditor* imageGridEditor() const { return imageGrid_; }
  RopeEditor* ropeEditor() const { return rope_; }

 private:
  // Shows the model's scene in the fields that show `parts` (all of them unless only the
  // selection changed) and its problem beside its field.
  void sync(ropescope::SceneChanges parts);
  void syncSelection();
  void rebuildParameterEditors();
  void showErrors();
  // The panel's boxes, top to bottom, each added to `column` with its editors connected.
  void buildModelBox(QVBoxLayout* column);
  void buildLayoutBox(QVBoxLayout* column);
  void buildDesignBox(QVBoxLayout* column);
  void buildAgeBox(QVBoxLayout* column);
  void buildPlanBox(QVBoxLayout* column);
  void buildSelectionBox(QVBoxLayout* column);
  QLabel* makeErrorLabel();

  SceneModel* model_;
  SegmentListEditor* segments_ = nullptr;
  ImageGridEditor* imageGrid_ = nullptr;
  QLabel* modelInfo_ = nullptr;  // the model applied last (File → Open model), and its family
  QComboBox* design_ = nullptr;
  QLabel* designSummary_ = nullptr;
  QFormLayout* paramsForm_ = nullptr;
  QWidget* paramsBox_ = nullptr;
  std::string editorsDesign_;  // which design the parameter editors were generated for
  std::map<std::string, ParameterEditor*> editors_;
  QComboBox* plan_ = nullptr;
  QComboBox* pairs_ = nullptr;  // rotary pair layout
  QSpinBox* headDim_ = nullptr;
  QSpinBox* rotaryDim_ = nullptr;
  QDoubleSpinBox* base_ = nullptr;
  QLineEdit* sections_ = nullptr;
  QSpinBox* kvHeads_ = nullptr;
  QSpinBox* kvHead_ = nullptr;
  QWidget* multiheadRow_ = nullptr;
  RopeEditor* rope_ = nullptr;  // the rope scaling's rows, in the frequency plan's box
  QSpinBox* ageLayers_ = nullptr;
  QComboBox* ageStrategy_ = nullptr;
  QSlider* ageLayer_ = nullptr;
  QLabel* ageLayerText_ = nullptr;
  QWidget* ageBox_ = nullptr;
  QSpinBox* selectedText_ = nullptr;
  QLabel* generalError_ = nullptr;
  bool errorsShown_ = false;                // showErrors() last showed a problem
  std::map<QString, QLabel*> fieldErrors_;  // field name -> its red label
};

}  // namespace ropescope::ui
