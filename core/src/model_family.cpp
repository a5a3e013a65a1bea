// Rule-set names and the link from a model family to its position design.
#include "ropescope/model_family.h"

#include <algorithm>

#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/transformers_release.h"

namespace ropescope {

namespace {

// The named sets and the release each stands for.
struct NamedRuleSet {
  const char* name;
  const char* release;
  const char* story;
};
constexpr NamedRuleSet kNamed[kNamedRuleSets] = {
    {"hf-4.57", "4.57.1", "transformers 4.57.1"},
    {"hf-5.3", "5.3.0", "transformers 5.3.0"},
    {"hf-main", "main", "transformers main after PR #48669"},
};

std::string normalRelease(const std::string& name) {
  return name.size() > 1 && name[0] == 'v' && name[1] >= '0' && name[1] <= '9' ? name.substr(1)
                                                                               : name;
}

}  // namespace

const std::vector<std::string>& ruleSetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const NamedRuleSet& r : kNamed) n.push_back(r.name);
    for (const std::string& r : transformersReleases()) n.push_back(r);
    return n;
  }();
  return names;
}

const char* ruleSetName(RuleSet r) {
  return ruleSetNames().at(static_cast<std::size_t>(r)).c_str();
}

std::string ruleSetRelease(std::size_t ruleSet) {
  if (ruleSet < kNamedRuleSets) return kNamed[ruleSet].release;
  return ruleSetNames().at(ruleSet);
}

std::string ruleSetAliasesText() {
  std::string s;
  for (const NamedRuleSet& r : kNamed)
    s += std::string(s.empty() ? "" : ", ") + r.name + " = " + r.story;
  return s;
}

void checkRuleSetName(const std::string& name, const std::vector<std::string>& alsoAccepted) {
  const auto& names = ruleSetNames();
  if (std::find(names.begin(), names.end(), normalRelease(name)) != names.end()) return;
  if (std::find(alsoAccepted.begin(), alsoAccepted.end(), name) != alsoAccepted.end()) return;
  std::vector<std::string> accepted;
  for (const NamedRuleSet& r : kNamed) accepted.push_back(r.name);
  accepted.insert(accepted.end(), alsoAccepted.begin(), alsoAccepted.end());
  const auto& rel = transformersReleases();
  throw InputError("unknown rule set \"" + name + "\" (accepted: " + joinNames(accepted) +
                       ", or a transformers release " + rel.front() + " ... " +
                       rel[rel.size() - 2] + " or main, e.g. 5.5.4; 5.10.0 was never released)",
                   "rules");
}

RuleSet parseRuleSet(const std::string& name) {
  checkRuleSetName(name);
  const auto& names = ruleSetNames();
  return static_cast<RuleSet>(std::find(names.begin(), names.end(), normalRelease(name)) -
                              names.begin());
}

const PositionDesign& ModelFamily::design() const {
  return findDesign(name());
}

}  // namespace ropescope
