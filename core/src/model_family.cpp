// Rule-set names and the link from a model family to its position design.
#include "ropescope/model_family.h"

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

RuleSet parseRuleSet(const std::string& name) {
  const auto& names = ruleSetNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<RuleSet>(i);
  throw InputError("unknown rule set \"" + name + "\" (accepted: " + joinNames(names) + ")",
                   "rules");
}

const PositionDesign& ModelFamily::design() const {
  return findDesign(name());
}

}  // namespace ropescope
