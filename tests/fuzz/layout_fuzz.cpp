// Fuzz target: the layout spec parser (parseLayoutSpec / parseLayoutSpecKeeping). A spec that
// parses must pass validateLayout and print back (formatLayoutSpec) to a spec that parses to
// the same layout.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ropescope/layout.h"

using namespace ropescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  if (!fuzz::staysInSamples(spec)) return 0;
  const LayoutFileContext files{ROPESCOPE_SAMPLES, {}};
  Layout layout;
  try {
    layout = parseLayoutSpec(spec, files);
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    std::vector<LayoutProblem> problems;
    try {
      parseLayoutSpecKeeping(spec, files, problems);
    } catch (const InputError& e2) {
      fuzz::checkMessage(e2);
    }
    for (const LayoutProblem& p : problems)
      if (p.message.empty() || p.message.find('\n') != std::string::npos)
        fuzz::bug("layout problem message is not one line: " + p.message);
    return 0;
  }
  try {
    validateLayout(layout);
  } catch (const InputError& e) {
    fuzz::bug(std::string("parsed layout fails validateLayout: ") + e.what());
  }
  const std::string printed = formatLayoutSpec(layout, ROPESCOPE_SAMPLES);
  Layout again;
  try {
    again = parseLayoutSpec(printed, files);
  } catch (const InputError& e) {
    fuzz::bug("printed spec \"" + printed + "\" does not parse: " + e.what());
  }
  if (!(again == layout)) fuzz::bug("spec \"" + printed + "\" does not read back the same");
  return 0;
}
