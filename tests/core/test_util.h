// Shared helpers for the core tests: random layouts and relative comparison.
#pragma once

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/layout.h"

namespace ropescope::test {

// A random layout of text runs, images and videos with small grids (edge shapes included).
inline Layout randomLayout(std::mt19937& rng, int maxSegments = 6, int maxSide = 7) {
  std::uniform_int_distribution<int> kind(0, 2), side(1, maxSide), run(1, 9), count(1, maxSegments),
      frames(1, 3);
  Layout l;
  const int n = count(rng);
  for (int i = 0; i < n; ++i) {
    switch (kind(rng)) {
      case 0:
        l.segments.push_back(Segment::text(run(rng)));
        break;
      case 1:
        l.segments.push_back(Segment::image(side(rng), side(rng)));
        break;
      default:
        l.segments.push_back(Segment::video(frames(rng), side(rng), side(rng)));
    }
  }
  // Always at least one text run and one visual block, so metrics are defined.
  l.segments.push_back(Segment::image(side(rng), side(rng)));
  l.segments.push_back(Segment::text(run(rng)));
  return l;
}

// The message of the InputError `f` throws, "(no error)" when it throws none.
inline std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

inline double relErr(double a, double b) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

}  // namespace ropescope::test
