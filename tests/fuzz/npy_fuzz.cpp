// Fuzz target: the .npy reader (readNpyBytes, the same code readNpy runs on a file). An array
// that loads has exactly the values its shape promises, within the element cap.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "ropescope/npy.h"

using namespace ropescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  NpyArray a;
  try {
    a = readNpyBytes(bytes, "npy data");
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    return 0;
  }
  std::size_t product = 1;
  for (std::size_t d : a.shape) product *= d;
  if (product != a.data.size()) fuzz::bug("shape product differs from the values read");
  if (a.data.size() > kNpyMaxElements) fuzz::bug("more values than kNpyMaxElements");
  if (a.data.size() * 2 > size) fuzz::bug("more values than the bytes can hold");
  return 0;
}
