// The man page and the bash completion of ropescope, generated from the one option table
// (cli_options.cpp) and core's lists of designs, plans and rule sets, so that neither drifts
// from --help. `ropescope --man-page` and `ropescope --bash-completion` print them; the build
// writes them to files that `cmake --install` installs (packaging/CMakeLists.txt).
#pragma once

#include <string>

namespace ropescope::cli {

// The forms of the command line (written once: --help's usage lines and the man page's
// synopsis) and what each does.
struct UsageForm {
  const char* words;  // after "ropescope"
  const char* what;
};
inline constexpr UsageForm kUsageForms[] = {
    {"[FILE.json]", "open the desktop app (on a scene file)"},
    {"COMMAND [options]", "compute and print JSON or CSV"},
    {"--version | --help", "print the version, or this help"},
};

// The usage lines of `ropescope --help`, aligned from the forms above.
std::string usageLines();

// roff source of ropescope(1).
std::string manPage();

// A bash completion script for ropescope (for share/bash-completion/completions/ropescope).
std::string bashCompletion();

}  // namespace ropescope::cli
