// The layout of the command reports that print one record per line (attention's summary, grid's
// pictures): the outer object or array one member per line, indented by two spaces, each value
// on one line with ", " and ": " between its parts. Values are built with nlohmann (strings
// escaped by it; bytes that are not UTF-8 become U+FFFD), doubles written as formatDouble does
// (shortest round trip, "1e+06"), non-finite doubles as null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ropescope {

// `value` on one line: {"min": 0.5, "max": 2} or [1, 4].
std::string jsonLine(const nlohmann::ordered_json& value);

// An object or array with each member on its own line, ending in a newline:
// "{\n  \"a\": 1,\n  \"b\": [1, 2]\n}\n". Other values: jsonLine plus a newline.
std::string jsonOneMemberPerLine(const nlohmann::ordered_json& value);

}  // namespace ropescope
