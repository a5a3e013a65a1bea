// libsndfile, opened on first use (dlopen) rather than linked: the `ropescope` front starts
// without loading it and the seven codec libraries it pulls in (FLAC, Vorbis, Opus, Ogg,
// mpg123, LAME), about a millisecond of every process's start-up, and only a layout with sound
// pays for them.
#pragma once

#include <sndfile.h>

namespace ropescope::detail {

struct SndfileApi {
  decltype(&::sf_open) open;
  decltype(&::sf_open_virtual) openVirtual;
  decltype(&::sf_close) close;
  decltype(&::sf_command) command;
  decltype(&::sf_error) error;
  decltype(&::sf_strerror) strerror;
  decltype(&::sf_seek) seek;
  decltype(&::sf_readf_float) readfFloat;
};

// The library's functions; InputError (field "sound") naming the library and the Debian package
// when it cannot be loaded. Safe to call from any thread.
const SndfileApi& sndfile();

}  // namespace ropescope::detail
