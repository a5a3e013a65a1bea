// `ropescope grid FILE...`: not built yet (issue 4).
#include "ropescope/errors.h"
#include "subcommands.h"

namespace ropescope::cli {

int runGridCommand(const std::vector<std::string>&) {
  throw InputError("ropescope grid is not available in this build yet");
}

}  // namespace ropescope::cli
