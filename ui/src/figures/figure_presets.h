// Presets that reproduce published figures: a scene plus the view, distance range and the paper
// figure it reproduces, read from resources/presets/*.json (compiled into the app).
#pragma once

#include <string>
#include <vector>

#include "ropescope/decay.h"
#include "ropescope/scene.h"

namespace ropescope::ui {

struct FigurePreset {
  std::string name;         // e.g. "circle-four-schemes"
  std::string title;        // one line
  std::string view;         // the view it is meant for (figure_views.h)
  std::string figure;       // the paper and figure it reproduces
  std::string differences;  // where it differs from the original
  int maxDistance = kDefaultDecayDistance;
  Scene scene;
};

// Every preset, in menu order. Pictures the scenes use (castle.png) are copied from the app's
// resources to a cache folder first. Throws InputError if a preset file is broken.
const std::vector<FigurePreset>& figurePresets();
// Throws InputError naming the accepted presets.
const FigurePreset& findFigurePreset(const std::string& name);

}  // namespace ropescope::ui
