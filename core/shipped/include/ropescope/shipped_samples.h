// The sample pictures that ship with ropescope (the pictures of resources/samples), compiled into
// the program by the ropescope_models library. The core reads pictures by path, so a sample is
// copied to $XDG_CACHE_HOME/ropescope/samples (else ~/.cache/..., else the temporary folder),
// rewritten when the copy differs (a stale or damaged copy never stands for the sample).
#pragma once

namespace ropescope {

// Installs them as the process's sample locator (ropescope/sample_pictures.h). Idempotent.
void installShippedSamples();

}  // namespace ropescope
