// Range checks for design and plan parameters, with messages that state the accepted range.
#include "ropescope/parameters.h"

#include <cmath>
#include <sstream>

#include "ropescope/errors.h"
#include "ropescope/named.h"

namespace ropescope {

namespace {
std::string number(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}
}  // namespace

std::string ParameterSpec::rangeText() const {
  switch (kind) {
    case Kind::Bool:
      return "0 or 1 (false or true)";
    case Kind::Choice: {
      std::string r;
      for (std::size_t i = 0; i < choices.size(); ++i)
        r += (i ? ", " : "") + std::to_string(i) + " (" + choices[i] + ")";
      return r;
    }
    case Kind::Integer:
      return "whole numbers " + number(min) + ".." + number(max);
    case Kind::Number:
      return std::string(minExclusive ? "(" : "[") + number(min) + ", " + number(max) + "]";
  }
  return {};
}

std::string ParameterSpec::check(double value) const {
  const std::string bad = key + " must be ";
  if (!std::isfinite(value)) return key + " must be a finite number (accepted " + rangeText() + ")";
  switch (kind) {
    case Kind::Bool:
      if (value != 0.0 && value != 1.0) return bad + rangeText() + " (got " + number(value) + ")";
      return {};
    case Kind::Choice:
      if (value < 0 || value >= static_cast<double>(choices.size()) || value != std::floor(value))
        return bad + "one of " + rangeText() + " (got " + number(value) + ")";
      return {};
    case Kind::Integer:
      if (value != std::floor(value) || value < min || value > max)
        return bad + rangeText() + " (got " + number(value) + ")";
      return {};
    case Kind::Number:
      if ((minExclusive ? value <= min : value < min) || value > max)
        return bad + "in " + rangeText() + " (got " + number(value) + ")";
      return {};
  }
  return {};
}

std::optional<double> ParameterSet::find(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

const ParameterSpec& requireSpec(const std::vector<ParameterSpec>& specs, const std::string& key,
                                 const std::string& design) {
  const ParameterSpec* spec = findSpec(specs, key);
  if (!spec)
    throw InputError("design " + design + " has no parameter \"" + key +
                         "\" (accepted: " + joinNames(parameterKeys(specs)) + ")",
                     key);
  return *spec;
}

const ParameterSpec* findSpec(const std::vector<ParameterSpec>& specs, const std::string& key) {
  for (const ParameterSpec& s : specs)
    if (s.key == key) return &s;
  return nullptr;
}

std::vector<std::string> parameterKeys(const std::vector<ParameterSpec>& specs) {
  std::vector<std::string> out;
  for (const ParameterSpec& s : specs) out.push_back(s.key);
  return out;
}

std::optional<double> namedParameterValue(const ParameterSpec& spec, const std::string& text) {
  if (spec.kind == ParameterSpec::Kind::Bool) {
    if (text == "true") return 1.0;
    if (text == "false") return 0.0;
  }
  if (spec.kind == ParameterSpec::Kind::Choice)
    for (std::size_t i = 0; i < spec.choices.size(); ++i)
      if (spec.choices[i] == text) return static_cast<double>(i);
  return std::nullopt;
}

double ParameterSet::get(const std::string& key, const std::vector<ParameterSpec>& specs) const {
  if (auto v = find(key)) return *v;
  const ParameterSpec* spec = findSpec(specs, key);
  if (!spec) throw InputError("internal: no parameter named " + key, key);
  return spec->defaultValue;
}

void validateParameters(const ParameterSet& values, const std::vector<ParameterSpec>& specs) {
  for (const auto& [key, value] : values.values()) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) throwUnknownName("parameter", key, parameterKeys(specs), key);
    std::string message = spec->check(value);
    if (!message.empty()) throw InputError(message, key);
  }
}

}  // namespace ropescope
