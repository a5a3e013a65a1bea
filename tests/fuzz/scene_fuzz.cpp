// Fuzz target: the scene file reader (sceneFromJson, what loadSceneFile runs on the file's
// text). A scene that loads must validate and write back (sceneToJson) to JSON that loads to
// the same scene.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "ropescope/scene.h"

using namespace ropescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!fuzz::staysInSamples(text)) return 0;
  Scene scene;
  try {
    scene = sceneFromJson(text, ROPESCOPE_SAMPLES);
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    return 0;
  }
  try {
    validateScene(scene);
  } catch (const InputError& e) {
    fuzz::bug(std::string("loaded scene fails validateScene: ") + e.what());
  }
  const std::string written = sceneToJson(scene, ROPESCOPE_SAMPLES);
  Scene again;
  try {
    again = sceneFromJson(written, ROPESCOPE_SAMPLES);
  } catch (const InputError& e) {
    fuzz::bug("written scene does not load: " + std::string(e.what()) + "\n" + written);
  }
  if (!(again == scene)) fuzz::bug("scene does not read back the same:\n" + written);
  return 0;
}
