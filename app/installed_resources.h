// Where an installed ropescope keeps its shipped files: PREFIX/share/ropescope (samples,
// presets, models; packaging/CMakeLists.txt), found from the running program wherever PREFIX
// is: PREFIX/bin/ropescope or PREFIX/libexec/ropescope/ropescope-gui.
#pragma once

#include <string>

namespace ropescope::cli {

// The folder, or "" when the program does not run from an installed tree (the build tree).
std::string installedResourceFolder();

// img:castle.png names the installed sample (sample_pictures.h) when there is one. For a
// program without the desktop app's own sample resources.
void useInstalledSamples();

}  // namespace ropescope::cli
