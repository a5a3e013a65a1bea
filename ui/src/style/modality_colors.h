// One colour per token modality (image, video, audio; text follows the theme's foreground),
// shared by the 3-D view's points and tracks, the Sound tab and the figures, so a modality
// reads the same everywhere.
#pragma once

#include <QColor>

#include "ropescope/position_ids.h"

namespace ropescope::ui {

inline QColor modalityColor(Modality m) {
  switch (m) {
    case Modality::Image:
      return QColor(245, 140, 40);
    case Modality::Video:
      return QColor(170, 100, 230);
    case Modality::Audio:
      return QColor(30, 190, 200);
    default:
      return QColor(220, 220, 220);  // text (where no theme colour is at hand)
  }
}

}  // namespace ropescope::ui
