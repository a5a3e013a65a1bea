#include "editors/image_grid_editor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <limits>
#include <utility>

#include "editors/field_widgets.h"
#include "model/scene_model.h"
#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/layout_files.h"
#include "ropescope/scene_fields.h"

namespace ropescope::ui {

namespace {

// The spin boxes hold int; pixel counts beyond it are not a real image processor's.
constexpr int kSpinMax = std::numeric_limits<int>::max();

int clampToSpin(long long v) {
  return static_cast<int>(std::min<long long>(v, kSpinMax));
}

}  // namespace

ImageGridEditor::ImageGridEditor(SceneModel* model, QWidget* parent)
    : QGroupBox(tr("Image grid (smart_resize)"), parent), model_(model) {
  setObjectName(QStringLiteral("imageGrid"));
  auto* form = new QFormLayout(this);
  preset_ = new QComboBox(this);
  preset_->setObjectName(QStringLiteral("imageGridPreset"));
  for (const std::string& name : imageGridPresetNames())
    preset_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  preset_->addItem(tr("custom"), QString());
  preset_->setToolTip(tr("The image processor whose smart_resize cuts pictures into the grid"));
  // The field table's spin boxes (object name = field key, range, help), one form row each.
  auto spin = [this, form](const char* key, const QString& tip) {
    auto* s = fieldSpinBox(key, this);
    s->setGroupSeparatorShown(true);
    s->setToolTip(tip);
    connect(s, &QSpinBox::valueChanged, this, [this] { commit(model_->scene().imageGrid.rule); });
    form->addRow(fieldLabel(key), s);
    return s;
  };
  form->addRow(tr("Preset"), preset_);
  minPixels_ =
      spin("min_pixels", tr("Pictures with fewer resized pixels are scaled up (Qwen2.5-VL: 3136)"));
  maxPixels_ = spin("max_pixels",
                    tr("Pictures with more resized pixels are scaled down (Qwen2.5-VL: 12845056)"));
  patch_ = spin("patch", tr("ViT patch side in pixels"));
  merge_ = spin("merge", tr("merge x merge patches become one LLM token (factor = patch x merge)"));
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("imageGridError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #d03030;"));
  error_->hide();
  form->addRow(error_);
  connect(preset_, &QComboBox::activated, this, [this](int i) {
    const QString name = preset_->itemData(i).toString();
    if (!name.isEmpty()) applyPreset(name);
  });
  connect(model_, &SceneModel::changed, this, &ImageGridEditor::sync);
  sync();
}

void ImageGridEditor::sync() {
  const ImageGridSettings& g = model_->scene().imageGrid;
  const QSignalBlocker b0(preset_), b1(minPixels_), b2(maxPixels_), b3(patch_), b4(merge_);
  // Only the boxes whose value differs: setValue repaints a box even to the same value, and this
  // runs after every edit, a click on a token among them.
  for (auto [box, value] : {std::pair{minPixels_, clampToSpin(g.minPixels)},
                            std::pair{maxPixels_, clampToSpin(g.maxPixels)},
                            std::pair{patch_, g.patch}, std::pair{merge_, g.merge}})
    if (box->value() != value) box->setValue(value);
  int match = preset_->count() - 1;  // custom
  for (int i = 0; i + 1 < preset_->count(); ++i)
    if (imageGridPreset(preset_->itemData(i).toString().toStdString()) == g) match = i;
  preset_->setCurrentIndex(match);
  QString message;
  for (const InputProblem& problem : model_->problems())
    if (message.isEmpty() && shows(problem.field)) message = problem.message;
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

bool ImageGridEditor::shows(const QString& field) {
  if (field == QLatin1String("image_grid") || field == QLatin1String("preset")) return true;
  for (const SceneField& f : sceneFields())
    if (f.section == "image_grid" && field == QString::fromStdString(f.key())) return true;
  return false;
}

QString ImageGridEditor::error() const {
  return error_->isHidden() ? QString() : error_->text();
}

void ImageGridEditor::applyPreset(const QString& name) {
  ResizeRule rule = ResizeRule::Qwen;
  try {
    const ImageGridSettings g = imageGridPreset(name.toStdString());
    rule = g.rule;
    const QSignalBlocker b1(minPixels_), b2(maxPixels_), b3(patch_), b4(merge_);
    minPixels_->setValue(clampToSpin(g.minPixels));
    maxPixels_->setValue(clampToSpin(g.maxPixels));
    patch_->setValue(g.patch);
    merge_->setValue(g.merge);
  } catch (const InputError& e) {
    model_->reportProblem({QString::fromStdString(e.what()), QStringLiteral("preset")});
    return;
  }
  commit(rule);
}

// New settings regrid the picture segments. Bad settings are kept in the scene so the core's
// message shows here and the user can correct them; a picture that can no longer be read
// keeps its old grid and is reported.
// `rule`: the preset's smart_resize variant, or the scene's when a number is edited (the rule has
// no field of its own: it comes with a preset or a model).
void ImageGridEditor::commit(ResizeRule rule) {
  ImageGridSettings g;
  g.rule = rule;
  g.minPixels = minPixels_->value();
  g.maxPixels = maxPixels_->value();
  g.patch = patch_->value();
  g.merge = merge_->value();
  Scene next = model_->scene();
  next.imageGrid = g;
  QString fileProblem;
  try {
    validateImageGridSettings(g);
    regridLayout(next.layout, g);
  } catch (const InputError& e) {
    fileProblem = QString::fromStdString(e.what());
  }
  model_->setScene(next);
  if (!fileProblem.isEmpty() && !model_->isStale())
    model_->reportProblem({fileProblem, QStringLiteral("image_grid")});
}

}  // namespace ropescope::ui
