#include "ropescope/check_ids.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "ropescope/errors.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/transformers_release.h"

namespace ropescope {

namespace {

std::string idText(const Id3& id) {
  return "(" + formatDouble(id[0]) + ", " + formatDouble(id[1]) + ", " + formatDouble(id[2]) + ")";
}

struct Comparison {
  std::optional<std::string> failure;  // the release raises (or cannot be computed) on this input
  std::vector<std::size_t> differing;
  std::optional<double> delta;  // rope_deltas as the release returns them, when dumped
  bool deltaDiffers = false;
  std::optional<std::size_t> paddingDiffers;  // the first padding token whose ids differ
  double padPosition = 0;                     // the release's position of padding tokens
  PositionIds ids;
  bool same() const { return !failure && differing.empty() && !deltaDiffers && !paddingDiffers; }
};

std::string familyOf(const Scene& scene) {
  const ModelFamily* f = familyOfDesign(scene.design);
  if (!f)
    throw InputError(
        "check-ids needs a model family's design (the scene's design " + scene.design + " is none)",
        "position-ids");
  return f->name();
}

Comparison compare(const Scene& scene, RuleSet rules, const IdsDump& dump) {
  Comparison c;
  ParameterSet params = scene.designParams;
  params.set("rules", static_cast<double>(rules));
  try {
    c.ids = findDesign(scene.design).ids(scene.layout, params);
  } catch (const InputError& e) {
    c.failure = e.what();
    return c;
  }
  if (!dump.batch.empty()) {
    const std::string family = familyOf(scene);
    const std::string batch =
        batchRaises(resolveRules(family, static_cast<std::size_t>(rules)), family, dump.batch);
    if (!batch.empty()) {
      c.failure = batch;
      return c;
    }
  }
  for (std::size_t i = 0; i < dump.ids.size(); ++i)
    if (c.ids.ids[i] != dump.ids[i]) c.differing.push_back(i);
  const ResolvedRules r = resolveRules(familyOf(scene), static_cast<std::size_t>(rules));
  c.padPosition = r.rules.padPosition;
  const Id3 pad{c.padPosition, c.padPosition, c.padPosition};
  for (std::size_t k = 0; k < dump.padding.size() && !c.paddingDiffers; ++k)
    if (dump.padding[k] != pad) c.paddingDiffers = k;
  if (dump.ropeDelta) {
    c.delta = returnedRopeDelta(scene, rules, c.ids, dump.paddedLength);
    c.deltaDiffers = *c.delta != *dump.ropeDelta;
  }
  return c;
}

std::string firstDifference(const Comparison& c, const IdsDump& dump,
                            const std::vector<long long>& tokenIds) {
  if (c.differing.empty() && c.paddingDiffers)
    return "padding token " + std::to_string(*c.paddingDiffers) + ": ropescope " +
           idText({c.padPosition, c.padPosition, c.padPosition}) + ", dump " +
           idText(dump.padding[*c.paddingDiffers]) + " (the ids of the tokens kept are identical)";
  if (c.differing.empty())
    return "rope_deltas: ropescope " + formatDouble(*c.delta) + ", dump " +
           formatDouble(*dump.ropeDelta) + " (the ids are identical)";
  const std::size_t i = c.differing.front();
  const TokenInfo& t = c.ids.tokens[i];
  std::string s = "token " + std::to_string(i) + " (" + modalityName(t.modality);
  if (t.modality == Modality::Audio)
    s += ", audio token " + std::to_string(t.frame);
  else if (t.modality != Modality::Text)
    s += ", cell " + std::to_string(t.frame) + "," + std::to_string(t.row) + "," +
         std::to_string(t.col);
  if (i < tokenIds.size()) s += ", token id " + std::to_string(tokenIds[i]);
  s += "): ropescope " + idText(c.ids.ids[i]) + ", dump " + idText(dump.ids[i]);
  return s;
}

// The candidates of a family: one rule set per release class, in release order, and the label
// of every release each stands for.
struct Candidate {
  RuleSet rules;
  std::vector<std::string> releases;
};

std::vector<Candidate> candidates(const std::string& family) {
  std::vector<Candidate> out;
  const auto& releases = transformersReleases();
  const auto& classes = releaseClasses(family);
  for (std::size_t k = 0; k < classes.size(); ++k) {
    Candidate c;
    c.rules = static_cast<RuleSet>(kNamedRuleSets + *releaseIndex(classes[k].first));
    const std::size_t lo = *releaseIndex(classes[k].first);
    const std::size_t hi =
        k + 1 < classes.size() ? *releaseIndex(classes[k + 1].first) : releases.size();
    for (std::size_t i = lo; i < hi; ++i) c.releases.push_back(releases[i]);
    out.push_back(std::move(c));
  }
  // PR #48669 is in no release: hf-main stands for main after it where it changes the rules.
  const ResolvedRules main = resolveRules(family, static_cast<std::size_t>(RuleSet::HfMain));
  if (!(main.rules == main.cls->rules)) out.push_back({RuleSet::HfMain, {main.release}});
  return out;
}

// "4.45.0-5.1.0, 5.6.0-main and main after #48669": runs of consecutive matching releases.
std::string rangesText(const std::vector<Candidate>& all, const std::vector<bool>& match) {
  std::vector<std::string> labels;
  std::vector<bool> on;
  for (std::size_t k = 0; k < all.size(); ++k)
    for (const std::string& r : all[k].releases) {
      labels.push_back(r);
      on.push_back(match[k]);
    }
  // "main after #48669" (hf-main) last: where it agrees with main, main needs no note.
  const bool after48669 = !labels.empty() && labels.back() == "main after #48669";
  if (after48669 && on.size() >= 2 && on.back() && on[on.size() - 2]) {
    labels.pop_back();
    on.pop_back();
  }
  const bool mainDiffers = after48669 && labels.back() == "main after #48669";
  std::vector<std::string> runs;
  for (std::size_t i = 0; i < labels.size();) {
    if (!on[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < labels.size() && on[j + 1] && labels[j + 1] != "main after #48669") ++j;
    std::string last = labels[j];
    if (last == "main" && mainDiffers) last = "main before #48669";
    runs.push_back(i == j ? last : labels[i] + "-" + last);
    i = j + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += (i == 0 ? "" : i + 1 == runs.size() ? " and " : ", ") + runs[i];
  return out;
}

std::string failureText(const std::string& failure) {
  return failure.rfind("transformers ", 0) == 0 ? failure : "cannot compute this input: " + failure;
}

}  // namespace

double returnedRopeDelta(const Scene& scene, RuleSet rules, const PositionIds& ids,
                         std::size_t paddedLength) {
  const ResolvedRules r = resolveRules(familyOf(scene), static_cast<std::size_t>(rules));
  const std::size_t n = ids.ids.size();
  if (r.rules.delta == DeltaRule::UnpaddedLength) return ids.ropeDelta;
  // Qwen2-VL 5.2.0 clamps at 0 with or without padding.
  return ropeDeltaAsReturned(r.rules, ids.ropeDelta + static_cast<double>(n) - 1.0, n,
                             std::max(paddedLength, n));
}

std::vector<RuleSet> everyReleaseClass(const std::string& family) {
  std::vector<RuleSet> out;
  for (const Candidate& c : candidates(family)) out.push_back(c.rules);
  return out;
}

std::vector<std::vector<Id3>> dumpedPositionIdRows(const NpyNumbers& a, const std::string& path) {
  const auto& s = a.shape;
  const std::string where = "position ids \"" + path + "\"";
  std::string shape = "[";
  for (std::size_t i = 0; i < s.size(); ++i) shape += (i ? ", " : "") + std::to_string(s[i]);
  shape += "]";
  const bool ok = (s.size() == 2 || s.size() == 3) && (s[0] == 3 || s[0] == 4) && s.back() > 0 &&
                  (s.size() == 2 || s[1] > 0);
  if (!ok)
    throw InputError(
        where + " must be [3, N], [3, B, N], [4, N] or [4, B, N] (got shape " + shape + ")",
        "position-ids");
  const std::size_t rows = s.size() == 3 ? s[1] : 1;
  const std::size_t n = s.back();
  const std::size_t skip = s[0] == 4 ? 1 : 0;  // [4, ...]: row 0 is the text positions
  std::vector<std::vector<Id3>> out(rows, std::vector<Id3>(n));
  for (std::size_t b = 0; b < rows; ++b)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t a3 = 0; a3 < 3; ++a3) {
        const double v = a.data[((a3 + skip) * rows + b) * n + i];
        if (!std::isfinite(v))
          throw InputError(where + " holds a non-finite value at token " + std::to_string(i) +
                               (rows > 1 ? " of row " + std::to_string(b) : std::string()),
                           "position-ids");
        out[b][i][a3] = v;
      }
  return out;
}

std::vector<Id3> dumpedPositionIds(const NpyNumbers& a, const std::string& path) {
  std::vector<std::vector<Id3>> rows = dumpedPositionIdRows(a, path);
  if (rows.size() != 1) {
    std::string shape = "[";
    for (std::size_t i = 0; i < a.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(a.shape[i]);
    throw InputError("position ids \"" + path + "\" hold a batch of " +
                         std::to_string(rows.size()) + " sequences (shape " + shape +
                         "]); dump one: ids[:, :1], or give the batch's tokens file",
                     "position-ids");
  }
  return std::move(rows.front());
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

std::vector<Id3> paddingOf(const std::vector<Id3>& dump, const std::vector<bool>& kept) {
  std::vector<Id3> out;
  if (dump.size() != kept.size()) return out;
  for (std::size_t i = 0; i < dump.size(); ++i)
    if (!kept[i]) out.push_back(dump[i]);
  return out;
}

IdsCheck checkPositionIds(const Scene& scene, const IdsDump& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path) {
  const std::size_t n = scene.layout.tokenCount();
  if (dump.ids.size() != n)
    throw InputError("position ids \"" + path + "\" hold " + std::to_string(dump.ids.size()) +
                         " tokens, the layout " + std::to_string(n) +
                         " (a tokens file's after dropping padding; a dump of the padded inputs "
                         "has one column per input_ids entry): dump the same inputs",
                     "position-ids");
  const std::string family = familyOf(scene);
  IdsCheck out;
  // Every release class, once; the rule sets checked are among them or computed besides.
  const std::vector<Candidate> all = candidates(family);
  std::vector<bool> match(all.size(), false);
  for (std::size_t k = 0; k < all.size(); ++k) match[k] = compare(scene, all[k].rules, dump).same();
  out.matchingReleases = rangesText(all, match);
  const std::string matches =
      out.matchingReleases.empty() ? std::string() : "matches transformers " + out.matchingReleases;

  std::vector<Comparison> results;
  std::string identical;
  const bool everyRelease = checked.size() > 1 && checked == everyReleaseClass(family);
  for (RuleSet r : checked) {
    results.push_back(compare(scene, r, dump));
    if (results.back().same())
      identical += std::string(identical.empty() ? "" : ", ") + ruleSetName(r);
  }
  std::ostringstream o;
  if (!identical.empty()) {
    out.identical = true;
    o << "identical (" << n << " tokens" << (everyRelease ? "" : ", " + identical)
      << "): " << matches << "\n";
    out.report = o.str();
    return out;
  }
  if (!results.empty() && !results.front().failure) out.differing = results.front().differing;
  if (!everyRelease)
    for (std::size_t k = 0; k < checked.size(); ++k) {
      const Comparison& c = results[k];
      o << ruleSetName(checked[k]) << ": ";
      if (c.failure)
        o << failureText(*c.failure) << "\n";
      else
        o << "differs at " << firstDifference(c, dump, tokenIds) << "; " << c.differing.size()
          << " of " << n << " tokens differ\n";
    }
  if (!matches.empty()) {
    o << matches << "\n";
  } else {
    // The first difference under the first rule set that computes this input.
    const Comparison* first = nullptr;
    RuleSet firstRules = RuleSet::Hf457;
    for (std::size_t k = 0; k < results.size() && !first; ++k)
      if (!results[k].failure) {
        first = &results[k];
        firstRules = checked[k];
      }
    o << "matches no release";
    if (first)
      o << ": first difference at " << firstDifference(*first, dump, tokenIds) << " (under "
        << ruleSetName(firstRules) << ")";
    o << "\n";
  }
  out.report = o.str();
  return out;
}

IdsCheck checkPositionIds(const Scene& scene, const std::vector<Id3>& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path) {
  IdsDump d;
  d.ids = dump;
  return checkPositionIds(scene, d, checked, tokenIds, path);
}

}  // namespace ropescope
