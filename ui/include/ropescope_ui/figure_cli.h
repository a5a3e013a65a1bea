// `ropescope render` entry into the ui library: named views of a scene rendered headless to
// PNG/SVG/PDF (or their data to CSV/JSON), and the presets that reproduce published figures.
// Keeps Qt and VTK out of app/: plain C++ types only.
#pragma once

#include <string>
#include <vector>

#include "ropescope/decay.h"
#include "ropescope/scene.h"

namespace ropescope::ui {

struct FigureViewInfo {
  std::string name, description;
  std::vector<std::string> formats;  // file extensions
  bool needsDisplay = false;         // 3-D (VTK) views need an X display
  bool takesDisplacement = false;    // --distance and --along (the phasor view)
};
std::vector<FigureViewInfo> figureViewList();

struct FigurePresetInfo {
  std::string name, title, view, figure, differences;
  int maxDistance = kDefaultDecayDistance;
  Scene scene;
};
std::vector<FigurePresetInfo> figurePresetList();
// Throws InputError naming the accepted presets.
FigurePresetInfo figurePresetInfo(const std::string& name);

struct RenderJob {
  Scene scene;
  std::string view;
  std::string out;  // format from the extension: .png .svg .pdf .csv .json
  int width = 1050, height = 750;
  double scale = 0.0;  // 0: auto (the canvas is one 3.5 in column wide)
  bool title = true, legend = true;
  bool colorByModality = false;  // 3-D views: --color-by modality
  int maxDistance = kDefaultDecayDistance;
  // The phasor view: the displacement, phasorDistance positions along phasorAlong (t h w thw).
  int phasorDistance = 3;
  std::string phasorAlong = "h";
  // The picture views of a video: the temporal patch shown (--temporal-patch, 0-based); only those
  // views take it (pairGiven).
  int temporalPatch = 0;
  bool pairGiven = false;
  // The picture and sound views: the layout segment shown (--segment, 0-based as the layout is
  // written; -1: the first picture, video or sound); only those views take it.
  int segment = -1;
};

// The phasor view's distances: 0..phasorMaxDistance().
int phasorMaxDistance();

// Checks the job (view, format, size, scale) without rendering; throws InputError.
void checkRenderJob(const RenderJob& job);
// Renders the job (creating the Qt application when there is none). 3-D views without an X
// display throw InputError saying to run under xvfb-run. Throws InputError on bad input.
void renderFigure(const RenderJob& job);

}  // namespace ropescope::ui
