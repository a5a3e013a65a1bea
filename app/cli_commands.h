// What the subcommands share: the output paths (stdout or --out) and the input warnings. Their
// run functions are the rows of commands.inc (command_table.h).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_options.h"
#include "ropescope/report.h"
#include "ropescope/report_text.h"

namespace ropescope::cli {

// Writes text to `path` by core's one output path (ropescope/atomic_file.h: atomic, links written
// through, FIFOs and devices in place, read-only files and folders refused), or to stdout if
// path is empty.
void writeOutput(std::string_view text, const std::string& path);
// The same for output produced piece by piece: `produce` hands its pieces to the sink it is
// given; the file appears whole when it returns (nothing changes if it throws).
void writeStreamed(const std::string& path, const std::function<void(const ReportSink&)>& produce);

// Prints on stderr, one line each, what the request's inputs warn of and were read despite
// (layoutWarnings: a picture whose extension disagrees with its content), plus `more`:
//   ropescope: warning: photo.png: the extension says PNG but the content is JPEG; read as JPEG
void printInputWarnings(const Request& request, const std::vector<std::string>& more = {});

}  // namespace ropescope::cli
