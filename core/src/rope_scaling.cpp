// The rope-type registry, the parameter rows the types share, and validation of a scaling.
#include "ropescope/rope_scaling.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "rope_types/rope_type_base.h"
#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/report.h"

namespace ropescope {

const char* pairScalingName(PairScaling s) {
  switch (s) {
    case PairScaling::Unchanged:
      return "unchanged";
    case PairScaling::Ramped:
      return "ramped";
    case PairScaling::Scaled:
      return "scaled";
    case PairScaling::NotRotated:
      return "not_rotated";
  }
  return "?";
}

const std::vector<const RopeType*>& allRopeTypes() {
  static const std::vector<const RopeType*> types = {
      &detail::defaultRopeType(),      &detail::linearRopeType(),   &detail::dynamicRopeType(),
      &detail::yarnRopeType(),         &detail::longropeRopeType(), &detail::llama3RopeType(),
      &detail::proportionalRopeType(),
  };
  return types;
}

std::vector<std::string> ropeTypeNames() {
  std::vector<std::string> out;
  for (const RopeType* t : allRopeTypes()) out.push_back(t->name());
  return out;
}

const RopeType& findRopeType(const std::string& name) {
  return *findByName(
      allRopeTypes(), name, [](const RopeType* t) { return t->name(); }, "rope type", "rope");
}

std::vector<std::string> ropeParameterKeys(const RopeType& type) {
  std::vector<std::string> keys = parameterKeys(type.parameters());
  for (const RopeListSpec& l : type.lists()) keys.push_back(l.key);
  return keys;
}

std::optional<double> ropeParam(const RopeScaling& s, const std::string& key) {
  return s.params.find(key);
}

std::vector<double> parseRopeListText(const std::string& text, const std::string& key) {
  std::vector<double> out;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t at = 0;
  bool any = false;
  for (char c : text) any = any || !blank(c);
  if (!any) return out;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    std::size_t b = at, e = comma;
    while (b < e && blank(text[b])) ++b;
    while (e > b && blank(text[e - 1])) --e;
    const std::string item = text.substr(b, e - b);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || !std::isfinite(v))
      throw InputError(key + " expects numbers separated by commas, one per pair (got \"" + item +
                           "\" as item " + std::to_string(out.size()) + ")",
                       key);
    out.push_back(v);
    if (comma >= text.size()) break;
    at = comma + 1;
  }
  return out;
}

std::string formatRopeListText(const std::vector<double>& list) {
  std::string out;
  char buf[32];
  for (double v : list) {
    if (!out.empty()) out += ',';
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ec == std::errc() ? end : buf);
  }
  return out;
}

void validateRopeScaling(const RopeScaling& s, const RopeInputs& in) {
  const RopeType& type = findRopeType(s.type);
  const auto& specs = type.parameters();
  for (const auto& [key, value] : s.params.values()) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec)
      throw InputError("rope type " + type.name() + " has no parameter \"" + key +
                           "\" (accepted: " + joinNames(ropeParameterKeys(type)) + ")",
                       key);
    if (std::string m = spec->check(value); !m.empty())
      throw InputError("rope " + type.name() + ": " + m, key);
  }
  const auto lists = type.lists();
  const auto hasList = [&](const std::string& key) {
    return std::any_of(lists.begin(), lists.end(),
                       [&](const RopeListSpec& l) { return l.key == key; });
  };
  if ((!s.shortFactor.empty() && !hasList("short_factor")) ||
      (!s.longFactor.empty() && !hasList("long_factor")))
    throw InputError("rope type " + type.name() + " has no parameter \"" +
                         std::string(!s.shortFactor.empty() ? "short_factor" : "long_factor") +
                         "\" (accepted: " + joinNames(ropeParameterKeys(type)) + ")",
                     !s.shortFactor.empty() ? "short_factor" : "long_factor");
  for (const std::string& key : type.requiredKeys()) {
    const bool given = hasList(key)
                           ? !(key == "short_factor" ? s.shortFactor : s.longFactor).empty()
                           : s.params.find(key).has_value();
    if (!given)
      throw InputError("rope type " + type.name() + " needs " + key +
                           " (it takes: " + joinNames(ropeParameterKeys(type)) + ")",
                       key);
  }
  if (s.maxPositionId < -1)
    throw InputError(
        "the largest position id must be >= 0 (got " + std::to_string(s.maxPositionId) + ")",
        "max_position_id");
  type.validate(s, in);
}

ScaledFrequencies scaleFrequencies(const RopeScaling& s, const RopeInputs& input) {
  RopeInputs in = input;
  in.scaling = &s;
  validateRopeScaling(s, in);
  return findRopeType(s.type).compute(in);
}

namespace detail {

void requireAbove(const RopeScaling& s, const std::string& a, double va, const std::string& b,
                  double vb) {
  if (!(va > vb))
    throw InputError("rope " + s.type + ": " + a + " must be greater than " + b + " (got " + a +
                         " " + formatDouble(va) + ", " + b + " " + formatDouble(vb) + ")",
                     a);
}

ParameterSpec factorSpec(const std::string& help, double defaultValue) {
  return {"factor", "factor", help, ParameterSpec::Kind::Number, 1.0, 1e6, false, defaultValue};
}

ParameterSpec originalLengthSpec(const std::string& help) {
  return {"original_max_position_embeddings",
          "original length",
          help,
          ParameterSpec::Kind::Integer,
          1.0,
          1e12,
          false,
          4096.0,
          {}};
}

ParameterSpec maxPositionSpec(const std::string& help) {
  return {"max_position_embeddings",
          "max positions",
          help,
          ParameterSpec::Kind::Integer,
          1.0,
          1e12,
          false,
          4096.0,
          {}};
}

ParameterSpec attentionFactorSpec(const std::string& help) {
  return {"attention_factor",
          "attention factor",
          help,
          ParameterSpec::Kind::Number,
          0.0,
          1e3,
          true,
          1.0,
          {}};
}

}  // namespace detail

}  // namespace ropescope
