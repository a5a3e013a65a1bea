// Rule sets by transformers release: the release table, --rules by version, the five
// defects the execution of transformers found (each test below failed before its fix), and
// check-ids naming the releases that match. The numbers are derived by hand from the release's
// get_rope_index (the file comment of core/src/families/hf_rope_index.cpp) and agree with what
// the oracle's execution returned (tests/golden/data/hf_ids_golden.jsonl).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ropescope/check_ids.h"
#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/transformers_release.h"
#include "test_util.h"

using namespace ropescope;
using test::messageOf;

namespace {

PositionIds idsOf(const std::string& family, const std::string& spec, const std::string& rules) {
  ParameterSet params;
  params.set("rules", static_cast<double>(parseRuleSet(rules)));
  return findDesign(family).ids(parseLayoutSpec(spec), params);
}

std::vector<double> axis(const PositionIds& ids, int a) {
  std::vector<double> out;
  for (const Id3& id : ids.ids) out.push_back(id[a]);
  return out;
}

Scene sceneOf(const std::string& family, const std::string& spec) {
  Scene s;
  s.design = family;
  s.layout = parseLayoutSpec(spec);
  return s;
}

// --- the table ------------------------------------------------------------------------------

TEST(Releases, RulesTakeAReleaseOrANamedSet) {
  EXPECT_EQ(ruleSetName(parseRuleSet("5.5.4")), std::string("5.5.4"));
  EXPECT_EQ(parseRuleSet("v4.57.1"), parseRuleSet("4.57.1"));
  EXPECT_EQ(parseRuleSet("hf-4.57"), RuleSet::Hf457);
  EXPECT_EQ(ruleSetRelease(static_cast<std::size_t>(RuleSet::Hf457)), "4.57.1");
  EXPECT_EQ(ruleSetRelease(static_cast<std::size_t>(RuleSet::Hf53)), "5.3.0");
  EXPECT_EQ(ruleSetNames().size(), kNamedRuleSets + transformersReleases().size());
  const std::string m = messageOf([] { parseRuleSet("5.10.0"); });
  EXPECT_NE(m.find("unknown rule set \"5.10.0\""), std::string::npos) << m;
  EXPECT_NE(m.find("4.45.0 ... 5.15.0 or main"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(Releases, AFamilyIsRefusedBeforeItsFirstRelease) {
  const std::string m = messageOf([] { idsOf("glm4v", "t2,i2x2", "4.52.0"); });
  EXPECT_NE(m.find("first appears in transformers 4.53.0"), std::string::npos) << m;
  EXPECT_NO_THROW(idsOf("glm4v", "t2,i2x2", "4.53.0"));
  EXPECT_THROW(idsOf("qwen3-omni", "t2,a3", "4.56.2"), InputError);
}

// A named set spans the releases up to the next named one's: under the default hf-4.57 (up to
// 5.2.x) every family has ids, Qwen3.5 (5.2.0) and ERNIE-4.5-VL (5.0.0rc2) with their first
// release's rules; the release 4.57.1 itself still has neither.
TEST(Releases, ANamedSetCoversTheFamiliesThatAppearInsideItsSpan) {
  const auto hf457 = static_cast<std::size_t>(RuleSet::Hf457);
  for (const ModelFamily* f : allFamilies())
    EXPECT_NO_THROW(resolveRules(f->name(), hf457)) << f->name();
  EXPECT_EQ(resolveRules("qwen3.5", hf457).release, "5.2.0");
  EXPECT_EQ(resolveRules("ernie4.5-vl", hf457).release, "5.0.0rc2");
  EXPECT_EQ(resolveRules("qwen2-vl", hf457).release, "4.57.1");
  EXPECT_THROW(idsOf("qwen3.5", "t2,i2x2", "4.57.1"), InputError);
  EXPECT_NO_THROW(idsOf("qwen3.5", "t2,i2x2", "hf-4.57"));
}

TEST(Releases, ClassesAreInReleaseOrderFromTheFamilysFirstRelease) {
  const std::map<std::string, std::string> first = {
      {"qwen2-vl", "4.45.0"},     {"qwen2.5-vl", "4.49.0"}, {"qwen3-vl", "4.57.0"},
      {"qwen3.5", "5.2.0"},       {"glm4v", "4.53.0"},      {"ernie4.5-vl", "5.0.0rc2"},
      {"qwen2.5-omni", "4.52.0"}, {"qwen3-omni", "4.57.0"}};
  for (const ModelFamily* f : allFamilies()) {
    const auto& classes = releaseClasses(f->name());
    ASSERT_FALSE(classes.empty()) << f->name();
    EXPECT_EQ(classes.front().first, first.at(f->name()));
    for (std::size_t k = 1; k < classes.size(); ++k)
      EXPECT_LT(*releaseIndex(classes[k - 1].first), *releaseIndex(classes[k].first));
  }
  EXPECT_EQ(releaseRange("qwen2-vl", releaseClasses("qwen2-vl")[0]), "4.45.0-5.1.0");
  EXPECT_EQ(releaseRange("qwen2.5-vl", releaseClasses("qwen2.5-vl")[4]), "5.5.4");
}

// docs/families.md shows the table as releaseTableMarkdown() writes it.
TEST(Releases, DocsShowTheTable) {
  std::ifstream in(ROPESCOPE_SAMPLES "/../../docs/families.md");
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_NE(doc.str().find(releaseTableMarkdown()), std::string::npos)
      << "docs/families.md#releases should hold:\n"
      << releaseTableMarkdown();
}

// --- defect 1: rope_deltas with left padding up to 5.2 count the padded length ----------------

// The issue's case: pad 3, text 2, image ViT (1, 8, 6) = 4 x 3 LLM tokens, text 2. Ids 0, 1,
// (2, 2..5, 2..4), 6, 7: max 7, 16 tokens kept, 19 with the padding. Up to 5.1 transformers
// returns 7 + 1 - 19 = -11 (ropescope gave 7 + 1 - 16 = -8, what 5.3 on return).
TEST(Releases, PaddedRopeDeltasUpTo52) {
  const PositionIds ids = idsOf("qwen2-vl", "t2,i4x3,t2", "4.57.1");
  const double maxId = ids.ropeDelta + 16 - 1;
  EXPECT_EQ(maxId, 7.0);
  const auto delta = [&](const std::string& release) {
    const ResolvedRules r =
        resolveRules("qwen2-vl", static_cast<std::size_t>(parseRuleSet(release)));
    return ropeDeltaAsReturned(r.rules, maxId, 16, 19);
  };
  EXPECT_EQ(delta("4.57.1"), -11.0);
  EXPECT_EQ(delta("5.1.0"), -11.0);
  EXPECT_EQ(delta("5.2.0"), 0.0);  // #43952: clamped at 0
  EXPECT_EQ(delta("5.3.0"), -8.0);
  EXPECT_EQ(delta("main"), -8.0);
  // check-ids compares rope_deltas as the release returns them.
  IdsDump dump;
  dump.ids = ids.ids;
  dump.paddedLength = 19;
  dump.ropeDelta = -11.0;
  const Scene scene = sceneOf("qwen2-vl", "t2,i4x3,t2");
  IdsCheck c = checkPositionIds(scene, dump, {parseRuleSet("4.57.1")}, {}, "p.npy");
  EXPECT_TRUE(c.identical) << c.report;
  EXPECT_EQ(c.matchingReleases, "4.45.0-5.1.0") << c.report;
  dump.ropeDelta = -8.0;
  c = checkPositionIds(scene, dump, {parseRuleSet("4.57.1")}, {}, "p.npy");
  EXPECT_FALSE(c.identical);
  EXPECT_EQ(c.matchingReleases, "5.3.0-main") << c.report;
  EXPECT_NE(c.report.find("rope_deltas: ropescope -11, dump -8"), std::string::npos) << c.report;
}

// --- defect 2: Qwen2.5-VL under 5.5.4 ---------------------------------------------------------

// #45330 in 5.5.4 fixed images (t = s) but not videos (t = s * tps * int(spg) for every token).
// t2 + image 2 x 3 at s = 2: 5.3.0 t = 2 * 2 * int(1 s default) = 4; 5.5.4 t = 2.
// t2 + video 3 x 2 x 2 at 1 s: 5.5.4 t = 2 * 2 * 1 = 4 for all 12 tokens, h = 2 + n / 6.
TEST(Releases, Qwen25VlUnder554FixesImagesNotVideos) {
  EXPECT_EQ(idsOf("qwen2.5-vl", "t2,i2x3,t2", "5.3.0").ids[2], (Id3{4, 2, 2}));
  EXPECT_EQ(idsOf("qwen2.5-vl", "t2,i2x3,t2", "5.5.4").ids[2], (Id3{2, 2, 2}));
  const PositionIds v = idsOf("qwen2.5-vl", "t2,v3x2x2@1s,t2", "5.5.4");
  for (int n = 0; n < 12; ++n) {
    EXPECT_EQ(v.ids[2 + n][0], 4.0) << n;
    EXPECT_EQ(v.ids[2 + n][1], 2.0 + n / 6) << n;
  }
  EXPECT_EQ(v.ids[14], (Id3{4, 4, 4}));  // s + max(H', W') = 2 + 2
  // An image and a video in one prompt: 5.3.0-5.5.3 raise StopIteration, 5.5.4 does not.
  const std::string m = messageOf([] { idsOf("qwen2.5-vl", "t2,i2x2,t1,v2x2x2@1s", "5.5.3"); });
  EXPECT_EQ(m.rfind("transformers 5.5.3 raises StopIteration", 0), 0u) << m;
  EXPECT_NO_THROW(idsOf("qwen2.5-vl", "t2,i2x2,t1,v2x2x2@1s", "5.5.4"));
}

// --- defect 3: Qwen3-VL / Qwen3.5 multi-frame videos under 5.3.0 --------------------------------

TEST(Releases, MultiFrameVideoUnder530Raises) {
  for (const char* family : {"qwen3-vl", "qwen3.5"}) {
    for (const char* rules : {"5.3.0", "hf-5.3"}) {
      const std::string m = messageOf([&] { idsOf(family, "t2,v2x2x2,t2", rules); });
      EXPECT_EQ(m.rfind("transformers 5.3.0 raises StopIteration on a multi-frame ", 0), 0u) << m;
      EXPECT_NE(m.find("#44474"), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos);
    }
    EXPECT_NO_THROW(idsOf(family, "t2,v1x2x2,t2", "5.3.0"));  // one temporal patch
    EXPECT_NO_THROW(idsOf(family, "t2,v2x2x2,t2", "5.4.0"));
  }
}

// --- defect 4: Qwen2.5-VL fractional second_per_grid_ts in main before #48669 ------------------

// 4 frames of 1 x 1 at 0.5 s, tps 2: main (3cd1a23) t_rel = k * int(0.5) * 2 = 0; after #48669
// trunc(f32(k) * f32(1)) = k; 4.49-4.51 long(k * 0.5 * 2) = k.
TEST(Releases, FractionalSecondsInMainBefore48669) {
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@0.5s", "main"), 0), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@0.5s", "hf-main"), 0),
            (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@0.5s", "4.49.0"), 0),
            (std::vector<double>{0, 1, 2, 3}));
  // A dump from that main: check-ids --rules all names main before #48669, not hf-main; 5.3.0 to
  // 5.5.4 give every video token t 0 (#45330's video half), so they are not among the matches.
  const Scene scene = sceneOf("qwen2.5-vl", "t2,v4x1x1@0.5s,t1");
  IdsDump dump;
  dump.ids = idsOf("qwen2.5-vl", "t2,v4x1x1@0.5s,t1", "main").ids;
  const IdsCheck c = checkPositionIds(scene, dump, everyReleaseClass("qwen2.5-vl"), {}, "p.npy");
  EXPECT_TRUE(c.identical) << c.report;
  EXPECT_EQ(c.matchingReleases, "4.52.0-5.2.0 and 5.6.0-main before #48669") << c.report;
  EXPECT_EQ(c.report,
            "identical (7 tokens): matches transformers 4.52.0-5.2.0 and 5.6.0-main before "
            "#48669\n");
}

// --- the processor's layout by release ---------------------------------------------------------

// FAMILY: items are written as the release's processor writes them: Qwen3-VL and Qwen3.5 from
// 5.10.1 (#45493) keep the template's outer vision start / end around a video's frames.
TEST(Releases, Qwen3VlVideoLayoutKeepsTheOuterMarksFrom5101) {
  const auto spec = [](const char* family, const char* rules) {
    LayoutFileContext files;
    files.rules = static_cast<std::size_t>(parseRuleSet(rules));
    return formatLayoutSpec(parseLayoutSpec(std::string("t1,") + family + ":v2x1x1/ts2,t1", files));
  };
  for (const char* family : {"qwen3-vl", "qwen3.5"}) {
    EXPECT_EQ(spec(family, "5.9.0"), "t1,ts2,s1,v1x1x1#0,s1,ts2,s1,v1x1x1#0,s1,t1") << family;
    EXPECT_EQ(spec(family, "5.10.1"), "t1,s1,ts2,s1,v1x1x1#0,s1,ts2,s1,v1x1x1#0,s1,s1,t1")
        << family;
    EXPECT_EQ(spec(family, "main"), spec(family, "5.10.1")) << family;
  }
  // Without a release: the default rule set's (hf-4.57) layout; GLM-4.1V keeps its own.
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("qwen3-vl:v1x1x1")), "ts1,s1,v1x1x1#0,s1");
  EXPECT_EQ(spec("glm4v", "main"), spec("glm4v", "5.9.0"));
}

// A scene file and the desktop app's layout line read FAMILY: items by the scene's own rule set
// (layoutContextOf), as the CLI does with --rules: the same release, the same tokens.
TEST(Releases, SceneFilesWriteFamilyItemsAsTheirRuleSetsRelease) {
  const auto fromFile = [](const char* rules) {
    const std::string text =
        std::string(R"({"format": "ropescope-scene", "version": 1, "design": "qwen3-vl", )") +
        R"("layout": "t1,qwen3-vl:v2x1x1/ts2,t1", "design_params": {"rules": ")" + rules + R"("}})";
    return formatLayoutSpec(sceneFromJson(text).layout);
  };
  EXPECT_EQ(fromFile("5.9.0"), "t1,ts2,s1,v1x1x1#0,s1,ts2,s1,v1x1x1#0,s1,t1");
  EXPECT_EQ(fromFile("5.10.1"), "t1,s1,ts2,s1,v1x1x1#0,s1,ts2,s1,v1x1x1#0,s1,s1,t1");
  // The context the desktop app's layout line parses with carries the scene's release.
  Scene scene = sceneFromJson(
      R"({"format": "ropescope-scene", "version": 1, "design": "qwen3-vl", "layout": "t3", )"
      R"("design_params": {"rules": "5.10.1"}})");
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("qwen3-vl:v1x1x1", layoutContextOf(scene))),
            "s1,ts1,s1,v1x1x1#0,s1,s1");
  scene.designParams.set("rules", static_cast<double>(parseRuleSet("5.9.0")));
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("qwen3-vl:v1x1x1", layoutContextOf(scene))),
            "ts1,s1,v1x1x1#0,s1");
}

// --- check-ids names releases -----------------------------------------------------------------

TEST(Releases, CheckIdsNamesNoReleaseWithTheFirstDifference) {
  const Scene scene = sceneOf("qwen2-vl", "t2,i2x2,t1");
  IdsDump dump;
  dump.ids = idsOf("qwen2-vl", "t2,i2x2,t1", "4.57.1").ids;
  dump.ids[6] = {9, 9, 9};
  const IdsCheck c = checkPositionIds(scene, dump, everyReleaseClass("qwen2-vl"), {}, "p.npy");
  EXPECT_FALSE(c.identical);
  EXPECT_TRUE(c.matchingReleases.empty());
  EXPECT_NE(c.report.find("matches no release: first difference at token 6 (text"),
            std::string::npos)
      << c.report;
}

// The padding's positions part releases as well: Qwen3-VL pads at 1 up to 5.1.x and at 0 from
// 5.2.0, with the same ids and (without padding in the deltas) nothing else to tell them apart.
// A dump of the padded row names only the releases whose padding it holds.
TEST(Releases, CheckIdsComparesThePaddingsPositions) {
  const Scene scene = sceneOf("qwen3-vl", "t2,i2x2,t1");
  IdsDump dump;
  dump.ids = idsOf("qwen3-vl", "t2,i2x2,t1", "5.1.0").ids;
  const std::vector<bool> kept = {false, false, false, true, true, true, true, true, true, true};
  std::vector<Id3> padded(3, Id3{1, 1, 1});
  padded.insert(padded.end(), dump.ids.begin(), dump.ids.end());
  ASSERT_EQ(padded.size(), kept.size());
  dump.padding = paddingOf(padded, kept);
  EXPECT_EQ(dump.padding.size(), 3u);
  EXPECT_EQ(withoutPadding(padded, kept), dump.ids);
  IdsCheck c = checkPositionIds(scene, dump, everyReleaseClass("qwen3-vl"), {}, "p.npy");
  EXPECT_TRUE(c.identical) << c.report;
  EXPECT_EQ(c.matchingReleases, "4.57.0-5.1.0") << c.report;
  c = checkPositionIds(scene, dump, {parseRuleSet("5.2.0")}, {}, "p.npy");
  EXPECT_FALSE(c.identical);
  EXPECT_NE(c.report.find("5.2.0: differs at padding token 0: ropescope (0, 0, 0), dump (1, 1, 1)"),
            std::string::npos)
      << c.report;
  for (Id3& id : dump.padding) id = {0, 0, 0};
  c = checkPositionIds(scene, dump, everyReleaseClass("qwen3-vl"), {}, "p.npy");
  EXPECT_EQ(c.matchingReleases, "5.2.0-main") << c.report;
  // A dump of the tokens kept only (no padding columns) matches every release.
  dump.padding.clear();
  c = checkPositionIds(scene, dump, everyReleaseClass("qwen3-vl"), {}, "p.npy");
  EXPECT_EQ(c.matchingReleases, "4.57.0-main") << c.report;
}

TEST(Releases, CheckIdsSaysWhereTheReleaseRaises) {
  const Scene scene = sceneOf("qwen3-vl", "t2,v2x2x2,t2");
  IdsDump dump;
  dump.ids = idsOf("qwen3-vl", "t2,v2x2x2,t2", "5.4.0").ids;
  const IdsCheck c = checkPositionIds(scene, dump, {parseRuleSet("5.3.0")}, {}, "p.npy");
  EXPECT_FALSE(c.identical);
  EXPECT_EQ(c.report.rfind("5.3.0: transformers 5.3.0 raises StopIteration", 0), 0u) << c.report;
  EXPECT_NE(c.report.find("matches transformers 4.57.0-5.2.0 and 5.4.0-main"), std::string::npos)
      << c.report;
}

}  // namespace
