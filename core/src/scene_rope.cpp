#include "scene_rope.h"

#include <cmath>
#include <string>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/parameters.h"

namespace ropescope::detail {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* kWhere = "frequency.rope";

[[noreturn]] void fail(const std::string& what, const std::string& field) {
  throw InputError(std::string(kWhere) + what, field);
}

std::vector<std::string> acceptedKeys(const RopeType& type) {
  std::vector<std::string> keys = {"type", "max_position_id"};
  for (const std::string& k : ropeParameterKeys(type)) keys.push_back(k);
  return keys;
}

}  // namespace

json ropeScalingJson(const RopeScaling& rope) {
  json j = json::object();
  j["type"] = rope.type;
  if (rope.maxPositionId >= 0) j["max_position_id"] = rope.maxPositionId;
  const RopeType& type = findRopeType(rope.type);
  for (const ParameterSpec& p : type.parameters()) {
    const std::optional<double> v = rope.params.find(p.key);
    if (!v) continue;  // absent: the type's own default, as transformers reads it
    if (p.kind == ParameterSpec::Kind::Bool)
      j[p.key] = *v != 0.0;
    else
      j[p.key] = *v;
  }
  for (const RopeListSpec& l : type.lists()) {
    const std::vector<double>& list = l.key == "short_factor" ? rope.shortFactor : rope.longFactor;
    if (!list.empty()) j[l.key] = list;
  }
  return j;
}

RopeScaling ropeScalingFromJson(const json& obj) {
  if (!obj.is_object()) fail(" must be an object {\"type\": NAME, parameter: value, ...}", "rope");
  if (!obj.contains("type") || !obj.at("type").is_string())
    fail(".type must be a rope type's name (" + joinNames(ropeTypeNames()) + ")", "rope");
  RopeScaling r;
  r.type = obj.at("type").get<std::string>();
  const RopeType* found = nullptr;
  try {
    found = &findRopeType(r.type);
  } catch (const InputError& e) {
    fail(std::string(".type: ") + e.what(), "rope");
  }
  const RopeType& type = *found;
  const std::vector<ParameterSpec>& specs = type.parameters();
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    if (key == "type") continue;
    if (key == "max_position_id") {
      const double p = v.is_number() ? v.get<double>() : -1.0;
      if (!v.is_number() || p < 0 || p > double(kMaxRopePositionId) || std::floor(p) != p)
        fail(".max_position_id must be a whole number in 0.." + std::to_string(kMaxRopePositionId) +
                 " (got " + v.dump() + ")",
             key);
      r.maxPositionId = static_cast<long long>(p);
      continue;
    }
    bool listed = false;
    for (const RopeListSpec& l : type.lists()) listed = listed || l.key == key;
    if (listed) {
      std::vector<double>& list = key == "short_factor" ? r.shortFactor : r.longFactor;
      if (!v.is_array() || v.empty())
        fail("." + key + " must be an array of numbers > 0, one per pair (got " + v.dump() + ")",
             key);
      for (const json& x : v) {
        if (!x.is_number())
          fail("." + key + " must be an array of numbers > 0, one per pair (got " + x.dump() +
                   " in it)",
               key);
        list.push_back(x.get<double>());
      }
      continue;
    }
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec)
      fail(": rope type " + type.name() + " has no parameter \"" + key +
               "\" (accepted: " + joinNames(acceptedKeys(type)) + ")",
           key);
    double value = 0.0;
    if (spec->kind == ParameterSpec::Kind::Bool) {
      if (!v.is_boolean()) fail("." + key + " must be true or false (got " + v.dump() + ")", key);
      value = v.get<bool>() ? 1.0 : 0.0;
    } else {
      if (!v.is_number())
        fail("." + key + " must be a number in " + spec->rangeText() + " (got " + v.dump() + ")",
             key);
      value = v.get<double>();
    }
    if (const std::string m = spec->check(value); !m.empty()) fail(": " + m, key);
    r.params.set(key, value);
  }
  return r;
}

}  // namespace ropescope::detail
