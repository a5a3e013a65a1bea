// Spin boxes generated from the field table.
#include "editors/field_widgets.h"

#include <algorithm>
#include <limits>

#include "editors/open_spin_box.h"
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
  auto* s = new OpenIntSpinBox(parent);
  s->setObjectName(QString::fromStdString(f.key()));
  s->setAcceptedRange(fieldSpinMinimum(f), fieldSpinMaximum(f));
  if (f.even) s->setSingleStep(2);
  s->setKeyboardTracking(false);
  s->setToolTip(QString::fromStdString(sceneFieldHelp(f)));
  return s;
}

QDoubleSpinBox* fieldDoubleSpinBox(const char* key, QWidget* parent) {
  const SceneField& f = sceneField(key);
  auto* s = new OpenDoubleSpinBox(parent);
  s->setObjectName(QString::fromStdString(f.key()));
  // An exclusive minimum (base > 1) is the arrows' minimum too: core refuses the bound itself,
  // and any typed number outside the range, beside the box.
  s->setAcceptedRange(f.spec.min, f.spec.max);
  // A base of 1.5 is a base too (the command line takes it): decimals where a number has them,
  // none shown where it has none (10,000).
  s->setDecimals(6);
  s->setTrimmedZeros(true);
  s->setKeyboardTracking(false);
  s->setToolTip(QString::fromStdString(sceneFieldHelp(f)));
  return s;
}

QString fieldLabel(const char* key) {
  return QString::fromStdString(sceneField(key).spec.label);
}

}  // namespace ropescope::ui
