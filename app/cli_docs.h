// The man page and the bash completion of ropescope, generated from the one option table
// (cli_options.cpp) and core's lists of designs, plans and rule sets, so that neither drifts
// from --help. `ropescope --man-page` and `ropescope --bash-completion` print them; the build
// writes them to files that `cmake --install` installs (packaging/CMakeLists.txt).
#pragma once

#include <string>

namespace ropescope::cli {

// roff source of ropescope(1).
std::string manPage();

// A bash completion script for ropescope (for share/bash-completion/completions/ropescope).
std::string bashCompletion();

}  // namespace ropescope::cli
