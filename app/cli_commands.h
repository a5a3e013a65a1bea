// The ropescope subcommands: each turns a parsed Request into core calls and one output text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli_options.h"
#include "ropescope/report_text.h"

namespace ropescope::cli {

// The output text of the command (JSON or CSV). Throws InputError on bad input.
ReportText runCommand(const Request& request);

// Writes text to `path` by core's one output path (ropescope/atomic_file.h: atomic, links written
// through, FIFOs and devices in place, read-only files and folders refused), or to stdout if
// path is empty.
void writeOutput(std::string_view text, const std::string& path);

// Prints on stderr, one line each, what the request's inputs warn of and were read despite
// (layoutWarnings: a picture whose extension disagrees with its content), plus `more`:
//   ropescope: warning: photo.png: the extension says PNG but the content is JPEG; read as JPEG
void printInputWarnings(const Request& request, const std::vector<std::string>& more = {});

}  // namespace ropescope::cli
