// Spin boxes generated from the field table.
#include "editors/field_widgets.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>
#include <limits>

#include "ropescope/scene_fields.h"

namespace ropescope::ui {

namespace {
constexpr double kIntMin = std::numeric_limits<int>::min();
constexpr double kIntMax = std::numeric_limits<int>::max();
}  // namespace

int fieldSpinMinimum(const SceneField& field) {
  return static_cast<int>(std::clamp(field.spec.min, kIntMin, kIntMax));
}

int fieldSpinMaximum(const SceneField& field) {
  return static_cast<int>(std::clamp(field.spec.max, kIntMin, kIntMax));
}

QSpinBox* fieldSpinBox(const char* key, QWidget* parent) {
  const SceneField& f = sceneField(key);
  auto* s = new QSpinBox(parent);
  s->setObjectName(QString::fromStdString(f.key()));
  s->setRange(fieldSpinMinimum(f), fieldSpinMaximum(f));
  if (f.even) s->setSingleStep(2);
  s->setKeyboardTracking(false);
  s->setToolTip(QString::fromStdString(sceneFieldHelp(f)));
  return s;
}

QDoubleSpinBox* fieldDoubleSpinBox(const char* key, QWidget* parent) {
  const SceneField& f = sceneField(key);
  auto* s = new QDoubleSpinBox(parent);
  s->setObjectName(QString::fromStdString(f.key()));
  // An exclusive minimum (base > 1) is the spin box's minimum too: core refuses the bound
  // itself, beside the box.
  s->setRange(f.spec.min, f.spec.max);
  s->setKeyboardTracking(false);
  s->setToolTip(QString::fromStdString(sceneFieldHelp(f)));
  return s;
}

QString fieldLabel(const char* key) {
  return QString::fromStdString(sceneField(key).spec.label);
}

}  // namespace ropescope::ui
