// Golden position ids from executing transformers: data/hf_ids_golden.jsonl holds, per model
// family x release (the first and the last release of every behaviour class, and main), what
// that release's own processor wrote for a case and what its own get_rope_index returned (ids,
// rope_deltas, or what it raised); docs/reference-data.md#hf_ids_goldenjsonl says how it was
// made (scripts/regen-ids-golden.py). Every line is replayed: the processor output is read as a
// tokens file (every row of a batch), ropescope computes the ids under the rule set of that
// release, and the ids of the kept tokens, the padding's positions and rope_deltas (as the
// release returns them) must be equal; where transformers raised, ropescope must refuse in one
// line naming the release.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ropescope/check_ids.h"
#include "ropescope/errors.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"
#include "ropescope/transformers_release.h"

namespace {

using json = nlohmann::json;
using namespace ropescope;

// The oracle's family keys -> ropescope's family and the config it was run with (the shipped
// configs hold the checkpoints' token ids; the omni ones are the oracle's, copied to data/).
struct FamilyConfig {
  const char* oracle;
  const char* family;
  std::string folder;
};
const std::vector<FamilyConfig>& families() {
  static const std::vector<FamilyConfig> f = {
      {"qwen2_vl", "qwen2-vl", ROPESCOPE_MODELS "/qwen2-vl-7b"},
      {"qwen2_5_vl", "qwen2.5-vl", ROPESCOPE_MODELS "/qwen2.5-vl-7b"},
      {"qwen3_vl", "qwen3-vl", ROPESCOPE_MODELS "/qwen3-vl-8b"},
      {"qwen3_5", "qwen3.5", ROPESCOPE_MODELS "/qwen3.5-0.8b"},
      {"glm4v", "glm4v", ROPESCOPE_MODELS "/glm-4.1v-9b-thinking"},
      {"ernie4_5_vl", "ernie4.5-vl", ROPESCOPE_MODELS "/ernie-4.5-vl-28b-a3b"},
      {"qwen2_5_omni", "qwen2.5-omni", ROPESCOPE_GOLDEN_DIR "/hf_ids_models/qwen2.5-omni"},
      {"qwen3_omni", "qwen3-omni", ROPESCOPE_GOLDEN_DIR "/hf_ids_models/qwen3-omni"},
  };
  return f;
}

const FamilyConfig& familyOf(const std::string& oracle) {
  for (const FamilyConfig& f : families())
    if (oracle == f.oracle) return f;
  throw std::runtime_error("unknown family " + oracle);
}

std::vector<json> goldenLines() {
  std::ifstream in(ROPESCOPE_GOLDEN_DIR "/hf_ids_golden.jsonl");
  std::vector<json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

// Whether check-ids' "4.57.0-5.1.0, 5.4.0-main before #48669" names `release`.
bool rangesHold(const std::string& ranges, const std::string& release) {
  const std::size_t at = *releaseIndex(release);
  std::size_t from = 0;
  while (from < ranges.size()) {
    std::size_t end = ranges.find(", ", from);
    std::size_t andAt = ranges.find(" and ", from);
    std::size_t stop = std::min(end, andAt);
    std::string run =
        ranges.substr(from, stop == std::string::npos ? std::string::npos : stop - from);
    from = stop == std::string::npos ? ranges.size() : stop + (stop == end ? 2 : 5);
    if (const std::size_t b = run.find(" before #"); b != std::string::npos) run.resize(b);
    const std::size_t dash = run.find('-');
    const auto lo = releaseIndex(run.substr(0, dash));
    const auto hi = releaseIndex(dash == std::string::npos ? run : run.substr(dash + 1));
    if (lo && hi && *lo <= at && at <= *hi) return true;
  }
  return false;
}

struct Tally {
  int agreed = 0, raisedAgreed = 0;
  // Agreed cases whose tokens disagree with their grids (GLM-4.1V 4.53.2-5.9.0, an image before
  // a video): ropescope warned and gave the grids' ids, as transformers does.
  int gridsFollowed = 0;
  std::vector<std::string> failures;
};

// The (t, h, w) of token i of row b.
std::array<double, 3> goldenId(const json& pos, bool batched, std::size_t b, std::size_t i) {
  std::array<double, 3> id{};
  for (std::size_t a = 0; a < 3; ++a)
    id[a] = batched ? pos[a][b][i].get<double>() : pos[a][i].get<double>();
  return id;
}

void replay(const json& g, std::map<std::string, ModelConfig>& configs, Tally& t) {
  const std::string oracleFamily = g["family"];
  const FamilyConfig& fc = familyOf(oracleFamily);
  const std::string version = g["version"].get<std::string>() == "main"
                                  ? "main"
                                  : g["version"].get<std::string>().substr(1);
  const std::string caseName = g["case"];
  const std::string label = std::string(fc.family) + " " + version + " " + caseName;
  if (!configs.count(fc.family)) configs[fc.family] = readModelConfig(fc.folder);
  const ModelConfig& model = configs[fc.family];
  const RuleSet rules = parseRuleSet(version);
  const bool raised = !g["error"].is_null();
  if (g["inputs"].is_null()) {
    t.failures.push_back(label + ": the processor raised: " + g["error"].get<std::string>());
    return;
  }
  // Where transformers raised, ropescope must refuse the tokens, the batch or one of its rows,
  // naming the release (after the reader's "tokens: row b: ").
  const auto namesRelease = [&](const std::string& m) {
    const std::size_t at = m.find("transformers " + version + " raises ");
    return at != std::string::npos && m.find("transformers ") == at;
  };
  // The tokens are read as the release's get_rope_index reads them (runs against grids).
  const std::size_t ruleIndex = static_cast<std::size_t>(rules);
  TokenRows rows;
  std::vector<Layout> layouts;
  std::vector<std::string> warnings;
  try {
    rows = splitBatchRows(tokenRowsFromJson(g["inputs"].dump(), label), model, {ruleIndex});
    for (const TokenInput& row : rows)
      layouts.push_back(layoutFromTokens(row, model, nullptr, {ruleIndex, &warnings}));
  } catch (const InputError& e) {
    if (raised && namesRelease(e.what()))
      ++t.raisedAgreed;
    else
      t.failures.push_back(label + ": tokens refused: " + e.what());
    return;
  }
  Scene scene = applyModel(Scene{}, model);
  ParameterSet params = scene.designParams;
  params.set("rules", static_cast<double>(rules));
  const PositionDesign& design = findDesign(fc.family);
  const ResolvedRules resolved = resolveRules(fc.family, static_cast<std::size_t>(rules));
  const bool batched = rows.size() > 1;
  std::vector<PositionIds> rowIds(rows.size());
  std::string refusal = batchRaises(resolved, fc.family, layouts);
  for (std::size_t b = 0; b < rows.size() && refusal.empty(); ++b) {
    try {
      rowIds[b] = design.ids(layouts[b], params);
    } catch (const InputError& e) {
      refusal = e.what();
    }
  }
  if (raised || !refusal.empty()) {
    if (raised && namesRelease(refusal))
      ++t.raisedAgreed;
    else if (raised)
      t.failures.push_back(label + ": transformers raised (" + g["error"].get<std::string>() +
                           "), ropescope " +
                           (refusal.empty() ? "gave ids" : "refused: " + refusal));
    else
      t.failures.push_back(label + ": ropescope refused (" + refusal + "), transformers gave ids");
    return;
  }
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const PositionIds& ids = rowIds[b];
    const json& pos = g["position_ids"];
    const std::vector<bool>& kept = rows[b].kept;
    std::size_t k = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const auto want = goldenId(pos, batched, b, i);
      const double pad = resolved.rules.padPosition;
      const std::array<double, 3> got =
          kept[i] ? std::array<double, 3>{ids.ids[k][0], ids.ids[k][1], ids.ids[k][2]}
                  : std::array<double, 3>{pad, pad, pad};
      if (got != want) {
        std::ostringstream o;
        o << label << " row " << b << ": token " << i << (kept[i] ? "" : " (padding)")
          << ": ropescope (" << got[0] << ", " << got[1] << ", " << got[2] << "), transformers ("
          << want[0] << ", " << want[1] << ", " << want[2] << ")";
        t.failures.push_back(o.str());
        return;
      }
      if (kept[i]) ++k;
    }
    const std::size_t n = ids.ids.size();
    const double delta =
        resolved.rules.delta == DeltaRule::UnpaddedLength
            ? ids.ropeDelta
            : ropeDeltaAsReturned(resolved.rules, ids.ropeDelta + static_cast<double>(n) - 1.0, n,
                                  kept.size());
    const double wantDelta = g["rope_deltas"][b].get<double>();
    if (delta != wantDelta) {
      std::ostringstream o;
      o << label << " row " << b << ": rope_deltas ropescope " << delta << ", transformers "
        << wantDelta;
      t.failures.push_back(o.str());
      return;
    }
    // check-ids on the dump of the padded row, as a user gives it (padding columns and
    // rope_deltas included): identical under the release, and the release among those named.
    Scene rowScene = scene;
    rowScene.design = fc.family;
    rowScene.layout = layouts[b];
    rowScene.designParams = params;
    std::vector<Id3> padded(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) padded[i] = goldenId(pos, batched, b, i);
    IdsDump dump;
    dump.ids = withoutPadding(padded, kept);
    dump.padding = paddingOf(padded, kept);
    dump.paddedLength = kept.size();
    dump.ropeDelta = wantDelta;
    if (batched) dump.batch = layouts;
    const IdsCheck check = checkPositionIds(rowScene, dump, {rules}, {}, "golden");
    if (!check.identical || !rangesHold(check.matchingReleases, version)) {
      t.failures.push_back(label + " row " + std::to_string(b) + ": check-ids says " +
                           check.report);
      return;
    }
  }
  ++t.agreed;
  if (!warnings.empty()) {
    ++t.gridsFollowed;
    if (warnings.size() != 1 || warnings.front().find("ids follow the grids as transformers " +
                                                      version + " does") == std::string::npos)
      t.failures.push_back(
          label + ": the warnings are not one line naming the release: " + warnings.front());
  }
}

TEST(HfIdsGolden, EveryFamilyAndReleaseAgreesWithTransformers) {
  const std::vector<json> lines = goldenLines();
  ASSERT_GT(lines.size(), 900u) << "data/hf_ids_golden.jsonl missing or short";
  std::map<std::string, ModelConfig> configs;
  Tally t;
  for (const json& g : lines) replay(g, configs, t);
  std::string shown;
  for (std::size_t i = 0; i < t.failures.size() && i < 40; ++i) shown += t.failures[i] + "\n";
  EXPECT_TRUE(t.failures.empty()) << t.failures.size() << " of " << lines.size()
                                  << " cases disagree:\n"
                                  << shown;
  // Raised cases are a part of the set: a replay that silently skipped them would not count.
  EXPECT_GT(t.raisedAgreed, 30);
  EXPECT_EQ(t.agreed + t.raisedAgreed + static_cast<int>(t.failures.size()),
            static_cast<int>(lines.size()));
  // GLM-4.1V image_video at 4.53.2, 4.56.2, 4.57.0, 5.2.0, 5.3.0 and 5.9.0: the processor gives the
  // image the video's frame tokens; transformers and ropescope give the grids' ids.
  EXPECT_EQ(t.gridsFollowed, 6);
}

// Every family and every class of the release table appears in the golden set: a class added to
// the table without golden cases, or a family without any, fails here.
TEST(HfIdsGolden, CoversEveryReleaseClass) {
  std::map<std::string, std::set<std::string>> versions;
  for (const json& g : goldenLines()) {
    const std::string v = g["version"];
    versions[familyOf(g["family"]).family].insert(v == "main" ? v : v.substr(1));
  }
  for (const FamilyConfig& f : families())
    for (const ReleaseClass& c : releaseClasses(f.family))
      EXPECT_TRUE(versions[f.family].count(c.first)) << f.family << " " << c.first;
}

}  // namespace
