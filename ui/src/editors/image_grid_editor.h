// The image processor's settings of the scene (preset, min/max pixels, patch, merge): an edit
// regrids every picture segment through the core, so the 3-D view and picture follow at once.
#pragma once

#include <QGroupBox>

#include "ropescope/image_grid.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace ropescope::ui {

class SceneModel;

class ImageGridEditor : public QGroupBox {
  Q_OBJECT

 public:
  explicit ImageGridEditor(SceneModel* model, QWidget* parent = nullptr);

  // Shows the model's settings without editing them.
  void sync();
  // Applies a preset by its core name (imageGridPresetNames: "qwen2.5-vl", "glm4v", ...).
  void applyPreset(const QString& name);
  QString error() const;
  // Whether a problem about `field` is shown here: the image_grid fields of the table, the box
  // itself ("image_grid") and the preset box ("preset").
  static bool shows(const QString& field);

 private:
  void commit(ResizeRule rule);

  SceneModel* model_;
  QComboBox* preset_ = nullptr;
  QSpinBox* minPixels_ = nullptr;
  QSpinBox* maxPixels_ = nullptr;
  QSpinBox* patch_ = nullptr;
  QSpinBox* merge_ = nullptr;
  QLabel* error_ = nullptr;
};

}  // namespace ropescope::ui
