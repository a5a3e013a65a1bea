// Fuzz target: the .npy reader (readNpyBytes, the same code readNpy runs on a file). An array
// that loads has exactly the values its shape promises, within the element cap.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "ropescope/npy.h"

using namespace ropescope;

namespace {
// The ids reader's variant (readNpyNumbersBytes: integers too, values kept in double).
void checkNumbers(std::string_view bytes) {
  NpyNumbers a;
  try {
    a = readNpyNumbersBytes(bytes, "ids data");
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    return;
  }
  std::size_t product = 1;
  for (std::size_t d : a.shape) product *= d;
  if (product != a.data.size()) fuzz::bug("numbers: shape product differs from the values read");
  if (a.data.size() > kNpyMaxElements) fuzz::bug("numbers: more values than kNpyMaxElements");
  if (a.data.size() > bytes.size()) fuzz::bug("numbers: more values than the bytes can hold");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  checkNumbers(bytes);
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
