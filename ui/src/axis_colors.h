// One colour per position axis (t, h, w), shared by the 3-D axes and every chart,
// so an axis reads the same everywhere.
#pragma once

#include <QColor>

namespace ropescope::ui {

inline QColor axisColor(int axis) {
  switch (axis) {
    case 0:
      return QColor(228, 87, 86);  // t
    case 1:
      return QColor(84, 178, 75);  // h
    case 2:
      return QColor(76, 140, 220);  // w
    default:
      return QColor(150, 150, 150);  // no axis (NoPE pairs)
  }
}

}  // namespace ropescope::ui
