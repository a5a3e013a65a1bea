#include "ropescope/check_ids.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "ropescope/errors.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

constexpr RuleSet kAllRuleSets[] = {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain};

const char* ruleSetStory(RuleSet r) {
  switch (r) {
    case RuleSet::Hf457:
      return "transformers up to 5.2";
    case RuleSet::Hf53:
      return "the 5.3.0-5.5.3 rewrite";
    case RuleSet::HfMain:
      return "transformers after PRs #45330, #45400 and #48669";
  }
  return "";
}

std::string idText(const Id3& id) {
  return "(" + formatDouble(id[0]) + ", " + formatDouble(id[1]) + ", " + formatDouble(id[2]) + ")";
}

struct Comparison {
  std::optional<std::string> failure;  // the rule set cannot compute this input
  std::vector<std::size_t> differing;
  PositionIds ids;
};

Comparison compare(const Scene& scene, RuleSet rules, const std::vector<Id3>& dump) {
  Comparison c;
  ParameterSet params = scene.designParams;
  params.set("rules", static_cast<double>(rules));
  try {
    c.ids = findDesign(scene.design).ids(scene.layout, params);
  } catch (const InputError& e) {
    c.failure = e.what();
    return c;
  }
  for (std::size_t i = 0; i < dump.size(); ++i)
    if (c.ids.ids[i] != dump[i]) c.differing.push_back(i);
  return c;
}

std::string firstDifference(const Comparison& c, const std::vector<Id3>& dump,
                            const std::vector<long long>& tokenIds) {
  const std::size_t i = c.differing.front();
  const TokenInfo& t = c.ids.tokens[i];
  std::string s = "token " + std::to_string(i) + " (" + modalityName(t.modality);
  if (t.modality == Modality::Audio)
    s += ", audio token " + std::to_string(t.frame);
  else if (t.modality != Modality::Text)
    s += ", cell " + std::to_string(t.frame) + "," + std::to_string(t.row) + "," +
         std::to_string(t.col);
  if (i < tokenIds.size()) s += ", token id " + std::to_string(tokenIds[i]);
  s += "): ropescope " + idText(c.ids.ids[i]) + ", dump " + idText(dump[i]);
  return s;
}

bool isChecked(const std::vector<RuleSet>& checked, RuleSet r) {
  return std::find(checked.begin(), checked.end(), r) != checked.end();
}

}  // namespace

std::vector<Id3> dumpedPositionIds(const NpyNumbers& a, const std::string& path) {
  const auto& s = a.shape;
  const std::string where = "position ids \"" + path + "\"";
  std::string shape = "[";
  for (std::size_t i = 0; i < s.size(); ++i) shape += (i ? ", " : "") + std::to_string(s[i]);
  shape += "]";
  const bool ok = (s.size() == 2 || (s.size() == 3 && s[1] == 1)) && (s[0] == 3 || s[0] == 4);
  if (s.size() == 3 && s[1] != 1 && (s[0] == 3 || s[0] == 4))
    throw InputError(where + " holds a batch of " + std::to_string(s[1]) + " sequences (shape " +
                         shape + "); dump one: ids[:, :1]",
                     "position-ids");
  if (!ok)
    throw InputError(
        where + " must be [3, N], [3, 1, N], [4, N] or [4, 1, N] (got shape " + shape + ")",
        "position-ids");
  const std::size_t n = s.back();
  const std::size_t skip = s[0] == 4 ? 1 : 0;  // [4, ...]: row 0 is the text positions
  std::vector<Id3> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a3 = 0; a3 < 3; ++a3) {
      const double v = a.data[(a3 + skip) * n + i];
      if (!std::isfinite(v))
        throw InputError(where + " holds a non-finite value at token " + std::to_string(i),
                         "position-ids");
      out[i][a3] = v;
    }
  return out;
}

std::vector<Id3> readPositionIdsDump(const std::string& path) {
  return dumpedPositionIds(readNpyNumbers(path, "position ids"), path);
}

std::vector<Id3> withoutPadding(std::vector<Id3> dump, const std::vector<bool>& kept) {
  if (dump.size() != kept.size()) return dump;
  std::vector<Id3> out;
  for (std::size_t i = 0; i < dump.size(); ++i)
    if (kept[i]) out.push_back(dump[i]);
  return out;
}

IdsCheck checkPositionIds(const Scene& scene, const std::vector<Id3>& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path) {
  const std::size_t n = scene.layout.tokenCount();
  if (dump.size() != n)
    throw InputError("position ids \"" + path + "\" hold " + std::to_string(dump.size()) +
                         " tokens, the layout " + std::to_string(n) +
                         " (a tokens file's after dropping padding; a dump of the padded inputs "
                         "has one column per input_ids entry): dump the same inputs",
                     "position-ids");
  IdsCheck out;
  std::vector<Comparison> results;
  std::string identical;
  for (RuleSet r : checked) {
    results.push_back(compare(scene, r, dump));
    if (!results.back().failure && results.back().differing.empty())
      identical += std::string(identical.empty() ? "" : ", ") + ruleSetName(r);
  }
  std::ostringstream o;
  if (!identical.empty()) {
    out.identical = true;
    o << "identical (" << n << " tokens, " << identical << ")\n";
    std::string same;  // the rule sets not asked for that give these ids too
    for (RuleSet r : kAllRuleSets) {
      if (isChecked(checked, r)) continue;
      const Comparison c = compare(scene, r, dump);
      if (!c.failure && c.differing.empty())
        same += std::string(same.empty() ? "" : ", ") + ruleSetName(r);
    }
    if (!same.empty())
      o << same << " give" << (same.find(',') == std::string::npos ? "s" : "")
        << " the same ids for this sequence\n";
    out.report = o.str();
    return out;
  }
  if (!results.empty() && !results.front().failure) out.differing = results.front().differing;
  for (std::size_t k = 0; k < checked.size(); ++k) {
    const Comparison& c = results[k];
    o << ruleSetName(checked[k]) << ": ";
    if (c.failure)
      o << "cannot compute this input: " << *c.failure << "\n";
    else
      o << "differs at " << firstDifference(c, dump, tokenIds) << "; " << c.differing.size()
        << " of " << n << " tokens differ\n";
  }
  // Which other rule set the dump follows.
  std::string matches;
  for (RuleSet r : kAllRuleSets) {
    if (isChecked(checked, r)) continue;
    const Comparison c = compare(scene, r, dump);
    if (!c.failure && c.differing.empty())
      matches += std::string(matches.empty() ? "" : "; ") + ruleSetName(r) + ": " + ruleSetStory(r);
  }
  o << (matches.empty() ? std::string("matches no rule set (hf-4.57, hf-5.3, hf-main)")
                        : "matches " + matches)
    << "\n";
  out.report = o.str();
  return out;
}

}  // namespace ropescope
