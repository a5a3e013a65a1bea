#include "ropescope/gpu_probe.h"

#include <cstdlib>

namespace ropescope {

namespace {
bool set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}
}  // namespace

bool gpuDisplayAvailable(std::string* why) {
  if (set("QT_QPA_PLATFORM") || set("DISPLAY") || set("WAYLAND_DISPLAY")) return true;
  if (why) *why = "no display to create an OpenGL context on (DISPLAY is not set)";
  return false;
}

std::string gpuUnavailableNote(const std::string& reason) {
  return "GPU unavailable (" + reason + "); using the CPU";
}

}  // namespace ropescope
