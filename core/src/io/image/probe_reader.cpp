// The failure and the size check shared by every picture probe.
#include "io/image/probe_reader.h"

#include "ropescope/errors.h"

namespace ropescope::probe {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw InputError(path + ": " + problem, "image");
}

void checkSize(const std::string& path, const char* format, long long w, long long h) {
  if (w <= 0 || h <= 0)
    fail(path, std::string("invalid ") + format + " header: size " + std::to_string(w) + "x" +
                   std::to_string(h));
  // Divided, not multiplied: TIFF and PNG sides are 32-bit, and 2^32 x 2^32 overflows long
  // long. The product printed is exact in u64 for such sides.
  if (w > kMaxImagePixels / h)
    fail(path, "picture too large: the " + std::string(format) + " header says " +
                   std::to_string(w) + "x" + std::to_string(h) + " = " +
                   std::to_string(static_cast<u64>(w) * static_cast<u64>(h)) +
                   " pixels, above the limit of " + std::to_string(kMaxImagePixels) +
                   " (8192x8192); nothing was decoded");
}

}  // namespace ropescope::probe
