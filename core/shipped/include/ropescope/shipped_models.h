// The model configs that ship with ropescope (resources/models), compiled into the program by
// the ropescope_models library: `--model NAME` reads them from memory in the command line, the
// desktop app and the Python module alike, wherever they are installed.
#pragma once

namespace ropescope {

// Installs them as the process's model locator (ropescope/model_config.h). Idempotent.
void installShippedModels();

}  // namespace ropescope
