// Entry point of the desktop app: `ropescope` with no subcommand starts it.
// Keeps Qt and VTK out of app/: the executable only sees this one function.
#pragma once

#include <string>

namespace ropescope::ui {

// Runs the GUI event loop; opens sceneFile when it is not empty. Returns the exit status.
int runGui(int argc, char** argv, const std::string& sceneFile);

}  // namespace ropescope::ui
