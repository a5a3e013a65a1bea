#include "sndfile_api.h"

#include <dlfcn.h>

#include <string>

#include "ropescope/errors.h"

namespace ropescope::detail {

namespace {

// The soname of libsndfile 1.x, the ABI sndfile.h describes.
constexpr const char* kLibrary = "libsndfile.so.1";

[[noreturn]] void unavailable(const std::string& why) {
  throw InputError(std::string("sound files need ") + kLibrary + ", which cannot be loaded (" +
                       why + "): install Debian's libsndfile1 (1.1 or later)",
                   "sound");
}

template <typename Fn>
void bind(void* lib, const char* name, Fn& fn) {
  void* sym = ::dlsym(lib, name);
  if (!sym) {
    ::dlclose(lib);  // a library without the function: not kept, the next call tries again
    unavailable(std::string(name) + " is missing");
  }
  fn = reinterpret_cast<Fn>(sym);
}

SndfileApi load() {
  // Never closed: the functions stay valid for the life of the process.
  void* lib = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = ::dlerror();
    unavailable(e ? e : "dlopen failed");
  }
  SndfileApi api{};
  bind(lib, "sf_open", api.open);
  bind(lib, "sf_open_virtual", api.openVirtual);
  bind(lib, "sf_close", api.close);
  bind(lib, "sf_command", api.command);
  bind(lib, "sf_error", api.error);
  bind(lib, "sf_strerror", api.strerror);
  bind(lib, "sf_seek", api.seek);
  bind(lib, "sf_readf_float", api.readfFloat);
  return api;
}

}  // namespace

const SndfileApi& sndfile() {
  static const SndfileApi api = load();  // a failed load throws, and the next call tries again
  return api;
}

}  // namespace ropescope::detail
