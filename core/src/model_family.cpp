// Rule-set names and the link from a model family to its position design.
#include "ropescope/model_family.h"

#include <algorithm>

#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"

namespace ropescope {

const std::vector<std::string>& ruleSetNames() {
  static const std::vector<std::string> names = {"hf-4.57", "hf-5.3", "hf-main"};
  return names;
}

const char* ruleSetName(RuleSet r) {
  return ruleSetNames()[static_cast<std::size_t>(r)].c_str();
}

void checkRuleSetName(const std::string& name, const std::vector<std::string>& alsoAccepted) {
  std::vector<std::string> names = ruleSetNames();
  names.insert(names.end(), alsoAccepted.begin(), alsoAccepted.end());
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  throw InputError("unknown rule set \"" + name + "\" (accepted: " + joinNames(names) + ")",
                   "rules");
}

RuleSet parseRuleSet(const std::string& name) {
  checkRuleSetName(name);
  const auto& names = ruleSetNames();
  return static_cast<RuleSet>(std::find(names.begin(), names.end(), name) - names.begin());
}

const PositionDesign& ModelFamily::design() const {
  return findDesign(name());
}

}  // namespace ropescope
