// Fuzz target: the picture header check (probeImageBytes, the same code probeImage runs on a
// file). A picture that passes has a positive size within kMaxImagePixels and 1..kMaxImageFrames
// frames.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "ropescope/image_probe.h"

using namespace ropescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ImageInfo info;
  try {
    info = probeImageBytes(data, size, "fuzz-input.png");
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    return 0;
  }
  const long long w = info.width, h = info.height;
  if (w < 1 || h < 1)
    fuzz::bug("accepted picture with size " + std::to_string(w) + "x" + std::to_string(h));
  if (w * h > kMaxImagePixels) fuzz::bug("accepted picture above kMaxImagePixels");
  if (info.frames < 1 || info.frames > kMaxImageFrames) fuzz::bug("frame count out of range");
  if (info.orientation < 1 || info.orientation > 8) fuzz::bug("orientation out of 1..8");
  if (!(info.fps >= 0.0)) fuzz::bug("negative or NaN fps");
  if (info.warning.find('\n') != std::string::npos) fuzz::bug("warning spans several lines");
  return 0;
}
