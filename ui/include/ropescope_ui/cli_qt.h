// Qt as the command line uses it: `render` and `attention` start Qt without a window, and
// nothing Qt says on its own reaches the user's stderr (the CLI's one-line contract).
#pragma once

namespace ropescope::ui {

// Call before any Qt object exists (app/main.cpp does, for the subcommands that use Qt). Gives
// Qt a private runtime folder when XDG_RUNTIME_DIR is unset (Qt warns "QStandardPaths:
// XDG_RUNTIME_DIR not set" when it has to pick one itself) and installs a message handler that
// drops Qt's debug, info and warning output; a critical or fatal message still reaches stderr as
// one "ropescope: Qt: ..." line.
void quietQtForCommandLine();

}  // namespace ropescope::ui
