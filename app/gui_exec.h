// The `ropescope` front links the core only (no Qt, no VTK): the desktop app, `render` and
// attention on the GPU run in ropescope-gui, which the front starts in its place (exec, same
// arguments, same standard streams and exit status).
#pragma once

#include <string>
#include <vector>

namespace ropescope::cli {

// ropescope-gui: $ROPESCOPE_GUI_BINARY when set, else ropescope-gui beside this program (the
// build tree), else ../libexec/ropescope/ropescope-gui from this program's folder (installed).
// "" when there is none; *lookedFor then lists where it was looked for.
std::string findGuiBinary(std::string* lookedFor = nullptr);

// Replaces this process by ropescope-gui with `args` (argv[1..]). Throws InputError, one line
// naming `what` needs it and where it was looked for, when it is not there or cannot start.
[[noreturn]] void execGui(const std::vector<std::string>& args, const std::string& what);

}  // namespace ropescope::cli
