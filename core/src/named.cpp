// The "unknown NAME (accepted: ...)" rule of every registry (named.h).
#include "ropescope/named.h"

#include "ropescope/errors.h"

namespace ropescope {

std::string joinNames(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void throwUnknownName(const std::string& what, std::string_view name,
                      const std::vector<std::string>& names, const std::string& field) {
  throw InputError(
      "unknown " + what + " \"" + std::string(name) + "\" (accepted: " + joinNames(names) + ")",
      field);
}

}  // namespace ropescope
