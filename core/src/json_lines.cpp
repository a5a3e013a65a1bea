#include "json_lines.h"

#include <cmath>

#include "ropescope/report.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

void putString(std::string& out, const std::string& s) {
  out += json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

void putLine(std::string& out, const json& v) {
  if (v.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& item : v.items()) {
      if (!first) out += ", ";
      first = false;
      putString(out, item.key());
      out += ": ";
      putLine(out, item.value());
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out += ", ";
      putLine(out, v[i]);
    }
    out += ']';
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    out += std::isfinite(d) ? formatDouble(d) : "null";
  } else {
    out += v.dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

}  // namespace

std::string jsonLine(const json& value) {
  std::string out;
  putLine(out, value);
  return out;
}

std::string jsonOneMemberPerLine(const json& value) {
  if (!value.is_object() && !value.is_array()) return jsonLine(value) + "\n";
  const bool object = value.is_object();
  std::string out(1, object ? '{' : '[');
  bool first = true;
  for (const auto& item : value.items()) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    if (object) {
      putString(out, item.key());
      out += ": ";
    }
    putLine(out, item.value());
  }
  out += object ? "\n}\n" : "\n]\n";
  return out;
}

}  // namespace ropescope
