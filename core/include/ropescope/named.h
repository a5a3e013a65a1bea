// Finding an item of a registry by its name, or refusing the name with the list of the names:
// one rule, and one message ("unknown design \"x\" (accepted: a, b, c)"), for designs, plans,
// families, presets, strategies and parameters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ropescope {

// "a, b, c"; "none" when there are no names.
std::string joinNames(const std::vector<std::string>& names);

// Throws InputError("unknown WHAT \"NAME\" (accepted: a, b, c)", field).
[[noreturn]] void throwUnknownName(const std::string& what, std::string_view name,
                                   const std::vector<std::string>& names, const std::string& field);

// The item of `items` that nameOf(item) calls `name`; else throwUnknownName with every name.
template <typename Items, typename NameOf>
const auto& findByName(const Items& items, std::string_view name, NameOf nameOf,
                       const std::string& what, const std::string& field) {
  std::vector<std::string> names;
  for (const auto& item : items) {
    if (nameOf(item) == name) return item;
    names.push_back(nameOf(item));
  }
  throwUnknownName(what, name, names, field);
}

}  // namespace ropescope
