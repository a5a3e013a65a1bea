// Shared helpers of the golden tests: comparing a computed value with a printed golden number, and
// running a design on a layout spec with named parameters.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "golden_reader.h"
#include "ropescope/layout.h"
#include "ropescope/parameters.h"
#include "ropescope/position_design.h"
#include "ropescope/position_ids.h"

namespace golden {

using Params = std::vector<std::pair<std::string, double>>;

// Slack added to every comparison: float64 rounding of the core and of the reference, far below
// any printed digit. Relative 1e-9 is the agreement the golden files are held to
// (docs/reference-data.md#golden-vectors-testsgoldendata).
inline double allowedError(const Num& expected, double integerSlack = 0.0) {
  if (expected.integer) return integerSlack;
  return expected.halfUnit + 1e-12 + 1e-9 * std::fabs(expected.value);
}

// |actual - expected| within the printed precision of `expected`. Integers must match exactly
// unless the caller says the printer may have rounded a float to an integer (integerSlack).
inline ::testing::AssertionResult matches(double actual, const Num& expected,
                                          double integerSlack = 0.0) {
  const double err = std::fabs(actual - expected.value);
  if (std::isfinite(actual) && err <= allowedError(expected, integerSlack))
    return ::testing::AssertionSuccess();
  std::ostringstream os;
  os.precision(15);
  os << "got " << actual << ", golden " << expected.text << " (|diff| " << err << " > allowed "
     << allowedError(expected, integerSlack) << ")";
  return ::testing::AssertionFailure() << os.str();
}

// Absolute and relative tolerance, for values the golden files print to 12 decimals or for
// two computations that must agree.
inline ::testing::AssertionResult near(double actual, double expected, double abs, double rel) {
  const double err = std::fabs(actual - expected);
  if (std::isfinite(actual) && err <= abs + rel * std::fabs(expected))
    return ::testing::AssertionSuccess();
  std::ostringstream os;
  os.precision(17);
  os << "got " << actual << ", expected " << expected << " (|diff| " << err << ")";
  return ::testing::AssertionFailure() << os.str();
}

inline ropescope::ParameterSet makeParams(const Params& p) {
  ropescope::ParameterSet set;
  for (const auto& [k, v] : p) set.set(k, v);
  return set;
}

inline ropescope::PositionIds computeIds(const std::string& design, const std::string& spec,
                                         const Params& params = {}) {
  return ropescope::findDesign(design).ids(ropescope::parseLayoutSpec(spec), makeParams(params));
}

inline std::string describe(const std::string& design, const std::string& spec,
                            const Params& params) {
  std::ostringstream os;
  os << design << " on " << spec;
  for (const auto& [k, v] : params) os << " " << k << "=" << v;
  return os.str();
}

}  // namespace golden
