// What can be told about the GPU backend without loading Qt: whether this process's environment
// offers a display (or a Qt platform) to create an OpenGL context on. The command-line front
// runs attention on the CPU by itself when it does not, and hands `--backend auto|gpu` to
// ropescope-gui when it does; the GPU backend (gpu/) asks the same before it starts Qt.
#pragma once

#include <string>

namespace ropescope {

// False, with the reason in *why, when QT_QPA_PLATFORM, DISPLAY and WAYLAND_DISPLAY are all
// unset or empty.
bool gpuDisplayAvailable(std::string* why);

// The note of `--backend auto` that fell back to the CPU for `reason`.
std::string gpuUnavailableNote(const std::string& reason);

}  // namespace ropescope
