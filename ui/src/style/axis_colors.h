// One colour per position axis (t, h, w, and VRoPE's fourth map h+w-t), shared by the 3-D axes
// and every chart, so an axis reads the same everywhere.
#pragma once

#include <QColor>

#include "ropescope/frequency_plan.h"

namespace ropescope::ui {

// `axis`: static_cast<int>(Axis).
inline QColor axisColor(int axis) {
  switch (axis) {
    case 0:
      return QColor(228, 87, 86);  // t
    case 1:
      return QColor(84, 178, 75);  // h
    case 2:
      return QColor(76, 140, 220);  // w
    case static_cast<int>(Axis::Mix):
      return QColor(160, 90, 200);  // h+w-t (VRoPE's fourth map)
    default:
      return QColor(150, 150, 150);  // no axis (NoPE pairs)
  }
}

// The charts' per-axis series are the coordinate slots of core (coordinateSlot): t, h, w, h+w-t.
inline QColor slotColor(int slot) {
  return axisColor(static_cast<int>(kCoordinateAxes[slot]));
}

}  // namespace ropescope::ui
