// The animation export as one call, for the command line (`ropescope render --animate SPEC
// --frames N`): keeps Qt out of app/.
#pragma once

#include <ostream>
#include <string>

#include "ropescope/scene.h"

namespace ropescope::ui {

// Renders `frames` frames of the sweep `spec` ("distance:0:256", "alpha:0:1", "radius:2:20",
// "dff:0:1"; see animationSpecHelp) of `scene` at width x height and writes a GIF (out ends in
// .gif) or a folder of PNGs. Creates a Qt application when none exists (distance frames need no
// display; α, R and β frames draw the 3-D view and need X, e.g. xvfb-run). Writes one line of
// summary to `log`. Throws ropescope::InputError for a bad spec, frame count, size or output,
// with a one-line message naming the accepted form or range. Returns 0 on success.
int renderAnimationCommand(const Scene& scene, const std::string& spec, int frames, int width,
                           int height, const std::string& out, std::ostream& log);

// The accepted spec forms, one line.
std::string animationSpecForms();

}  // namespace ropescope::ui
