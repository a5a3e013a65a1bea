// `ropescope attention`: not built yet (issue 5).
#include "ropescope/errors.h"
#include "subcommands.h"

namespace ropescope::cli {

int runAttentionCommand(const std::vector<std::string>&) {
  throw InputError("ropescope attention is not available in this build yet");
}

}  // namespace ropescope::cli
