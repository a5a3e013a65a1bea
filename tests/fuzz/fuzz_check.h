// What every fuzz target checks besides "no crash, no sanitizer report": a refused input gets
// an InputError whose message is one non-empty line (the CLI prints it, the GUI shows it beside
// a field), and any other exception escaping the reader is a bug.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ropescope/errors.h"

namespace ropescope::fuzz {

[[noreturn]] inline void bug(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

inline void checkMessage(const InputError& e) {
  const std::string_view m = e.what();
  if (m.empty()) bug("InputError with an empty message");
  if (m.find('\n') != std::string_view::npos || m.find('\r') != std::string_view::npos)
    bug("InputError message spans several lines: " + std::string(m));
}

// File items of layouts and scenes are read relative to resources/samples. Inputs that could
// name a file outside it (an absolute path, "..", a JSON escape \/ or \uXXXX that hides
// either) are skipped, so a run reads the same few sample pictures whatever the fuzzer writes.
inline bool staysInSamples(std::string_view s) {
  if (s.find("..") != std::string_view::npos || s.find("\\/") != std::string_view::npos ||
      s.find("\\u") != std::string_view::npos || s.find('~') != std::string_view::npos)
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '/') continue;
    const char p = i ? s[i - 1] : ' ';
    const bool word = (p >= 'a' && p <= 'z') || (p >= 'A' && p <= 'Z') || (p >= '0' && p <= '9') ||
                      p == '_' || p == '-' || p == '.';
    if (!word) return false;
  }
  return true;
}

}  // namespace ropescope::fuzz
