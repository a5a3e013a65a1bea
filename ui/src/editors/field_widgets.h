// Widgets for the Scene's fields (ropescope/scene_fields.h): the field table gives each its
// object name (the field's key, the field id of its errors), range, tooltip and label, so the
// scene panel cannot accept other values than the CLI and the session file.
#pragma once

#include <QString>

class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace ropescope {
struct SceneField;
}

namespace ropescope::ui {

// The range a QSpinBox can hold of a whole-number field: the table's, clipped to int.
int fieldSpinMinimum(const SceneField& field);
int fieldSpinMaximum(const SceneField& field);

// A spin box over the field `key`: its table range for the arrows (even fields step by 2), any
// typed number for core to check (open_spin_box.h), no keyboard tracking (a value counts when
// typed in full), the help as tooltip.
QSpinBox* fieldSpinBox(const char* key, QWidget* parent);
QDoubleSpinBox* fieldDoubleSpinBox(const char* key, QWidget* parent);

// The field's label ("Head dim"), for the form row.
QString fieldLabel(const char* key);

}  // namespace ropescope::ui
