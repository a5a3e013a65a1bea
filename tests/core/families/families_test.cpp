// Model families: the registry, get_rope_index under the three rule sets against
// vectors derived by hand from the transformers code, the published golden vectors
// (docs/reference-data.md#values-checked-outside-the-golden-files), the rotary of the released
// checkpoints against the direct formula, and the layout spec items that write a model's token
// sequence.
//
// Conventions of the hand derivations below (read from transformers' modeling_*.py):
// - Grids in a layout are LLM grids: ViT grid (T, H, W) -> v<T>x<H/2>x<W/2>.
// - hf-4.57: a block starts at s = max(all ids so far) + 1; token (f, r, c) gets
//   (s + t_rel(f), s + r, s + c); the next text starts at max(block) + 1.
// - hf-5.3: a block starts at the running position s; every token t = s * time_interval; the
//   n-th token h = s + n / (W'T'), w = s + n % W' (repeat_interleave / repeat); next text at
//   s + max(H', W').
// - hf-main: (s + t_rel(f), s + r, s + c) as hf-4.57, next text at s + max(H', W').
// - rope_delta = max id + 1 - N.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/model_family.h"
#include "ropescope/phasor.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "test_util.h"

using namespace ropescope;

namespace {

PositionIds idsOf(const std::string& family, const std::string& spec, const std::string& rules,
                  ParameterSet params = {}) {
  params.set("rules", static_cast<double>(parseRuleSet(rules)));
  return findDesign(family).ids(parseLayoutSpec(spec), params);
}

std::vector<double> axis(const PositionIds& ids, int a) {
  std::vector<double> out;
  for (const Id3& id : ids.ids) out.push_back(id[a]);
  return out;
}

// Text ids p, p+1, ..., p+n-1 appended to v.
void text(std::vector<Id3>& v, double p, int n) {
  for (int i = 0; i < n; ++i) v.push_back({p + i, p + i, p + i});
}

// An image-like block of one temporal patch at start s (t = s), raster order.
void still(std::vector<Id3>& v, double s, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) v.push_back({s, s + r, s + c});
}

const std::vector<std::string> kFamilies = {"qwen2-vl", "qwen3-vl",   "qwen3.5",
                                            "glm4v",    "qwen2.5-vl", "ernie4.5-vl"};
const std::vector<std::string> kRules = {"hf-4.57", "hf-5.3", "hf-main"};
// Multi-frame Qwen3-VL / Qwen3.5 videos: transformers 5.3.0 (hf-5.3) raises StopIteration on
// them (#44474; tests/core/families/releases_test.cpp), 5.4.0 is the first release of that code
// that gives ids.
const std::vector<std::string> kVideoRules = {"hf-4.57", "5.4.0", "hf-main"};

using test::messageOf;

}  // namespace

TEST(Families, RegistryListsTheFamiliesAsDesigns) {
  std::vector<std::string> names;
  for (const ModelFamily* f : allFamilies()) {
    names.push_back(f->name());
    EXPECT_EQ(&f->design(), &findDesign(f->name()));
    EXPECT_EQ(&findFamily(f->name()), f);
    for (const std::string& t : f->modelTypes()) EXPECT_EQ(familyForModelType(t), f) << t;
    const std::vector<ParameterSpec> specs = f->design().parameters();
    const ParameterSpec* rules = findSpec(specs, "rules");
    ASSERT_NE(rules, nullptr) << f->name();
    EXPECT_EQ(rules->kind, ParameterSpec::Kind::Choice);
    EXPECT_EQ(rules->choices, ruleSetNames());
    EXPECT_EQ(rules->defaultValue, 0.0);  // hf-4.57
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"qwen2-vl", "qwen2.5-vl", "qwen3-vl", "qwen3.5", "glm4v",
                                      "ernie4.5-vl", "qwen2.5-omni", "qwen3-omni"}));
  // The designs list them after the research designs, in the same order.
  const auto& designs = allDesigns();
  const std::size_t k = names.size();
  ASSERT_GE(designs.size(), k);
  for (std::size_t i = 0; i < k; ++i) EXPECT_EQ(designs[designs.size() - k + i]->name(), names[i]);
  EXPECT_EQ(familyForModelType("qwen2_5_vl")->name(), "qwen2.5-vl");
  EXPECT_EQ(familyForModelType("qwen3_5")->name(), "qwen3.5");
  EXPECT_EQ(familyForModelType("glm4v_moe")->name(), "glm4v");
  EXPECT_EQ(familyForModelType("ernie4_5_vl_moe")->name(), "ernie4.5-vl");
  EXPECT_EQ(familyForModelType("llava"), nullptr);
  EXPECT_NE(messageOf([] { findFamily("qwen4"); }).find("accepted: qwen2-vl, qwen2.5-vl"),
            std::string::npos);
  EXPECT_EQ(findFamily("ernie4.5-vl").videoTemporalMerge(), 2);
  EXPECT_EQ(findFamily("qwen3-vl").videoTemporalMerge(), 1);
  EXPECT_EQ(findFamily("glm4v").videoTokens(), VideoTokens::FramesAsImages);
  EXPECT_EQ(findFamily("qwen3.5").videoTokens(), VideoTokens::FrameBlocks);
  EXPECT_EQ(findFamily("qwen2.5-vl").videoTokens(), VideoTokens::OneBlock);
  // Token ids of the released configs (the transformers config classes' defaults).
  EXPECT_EQ(findFamily("qwen2.5-vl").defaultTokenIds().visionStart, 151652);
  EXPECT_EQ(findFamily("qwen3.5").defaultTokenIds().imageToken, 248056);
  EXPECT_EQ(findFamily("glm4v").defaultTokenIds().videoStart, 151341);
  EXPECT_EQ(findFamily("ernie4.5-vl").defaultTokenIds().videoToken, 103367);
}

TEST(Families, RuleSetNamesParseBack) {
  for (RuleSet r : {RuleSet::Hf457, RuleSet::Hf53, RuleSet::HfMain})
    EXPECT_EQ(parseRuleSet(ruleSetName(r)), r);
  try {
    parseRuleSet("hf-4.50");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "rules");
    EXPECT_STREQ(
        e.what(),
        "unknown rule set \"hf-4.50\" (accepted: hf-4.57, hf-5.3, hf-main, or a transformers "
        "release 4.45.0 ... 5.15.0 or main, e.g. 5.5.4; 5.10.0 was never released)");
  }
}

// Golden: Multimodal-RoPEs tests/golden/qwen3vl_rope_hf4571.pt (transformers 4.57.1), 29
// tokens: text 5, <vs> image (ViT 1x4x4 -> 2x2) <ve>, text 3, <vs> frame 1 <ve>, text 2,
// <vs> frame 2 <ve>, text 1 (video ViT 2x4x4: two frames of 2x2). delta = -6.
TEST(Families, Qwen3VlGoldenCanonicalCase) {
  const std::string spec = "t5,qwen3-vl:i2x2,t3,s1,v1x2x2#0,s1,t2,s1,v1x2x2#0,s1,t1";
  const std::vector<double> goldenT = {0,  1,  2,  3,  4,  5,  6,  6,  6,  6,  8,  9,  10, 11, 12,
                                       13, 13, 13, 13, 15, 16, 17, 18, 19, 19, 19, 19, 21, 22};
  for (const std::string& rules : kVideoRules) {
    const PositionIds ids = idsOf("qwen3-vl", spec, rules);
    ASSERT_EQ(ids.size(), 29u);
    EXPECT_EQ(axis(ids, 0), goldenT) << rules;
    // H: ..., 6,6,7,7, ...; W: ..., 6,7,6,7, ... for the image at 6..9.
    const std::vector<double> h = axis(ids, 1), w = axis(ids, 2);
    EXPECT_EQ(std::vector<double>(h.begin() + 6, h.begin() + 10),
              (std::vector<double>{6, 6, 7, 7}));
    EXPECT_EQ(std::vector<double>(w.begin() + 6, w.begin() + 10),
              (std::vector<double>{6, 7, 6, 7}));
    EXPECT_EQ(ids.ropeDelta, -6.0) << rules;
  }
}

// Golden Qwen3.5 case (18 tokens, delta -4): text 5, image 2x2, text 3, image 2x2, text 2.
TEST(Families, Qwen35GoldenCases) {
  const std::vector<double> goldenT = {0, 1, 2, 3, 4, 5, 5, 5, 5, 7, 8, 9, 10, 10, 10, 10, 12, 13};
  for (const std::string& rules : kRules) {
    const PositionIds ids = idsOf("qwen3.5", "t5,i2x2,t3,i2x2,t2", rules);
    EXPECT_EQ(axis(ids, 0), goldenT) << rules;
    EXPECT_EQ(ids.ropeDelta, -4.0) << rules;
    // Third-party example: 8 text + a (1, 28, 28) image -> 14x14 LLM grid; next text at 22.
    const PositionIds big = idsOf("qwen3.5", "t8,i14x14,t1", rules);
    EXPECT_EQ(big.ids.back(), (Id3{22, 22, 22})) << rules;
  }
}

// #45381 fixture: 14 text + <vs> + a video of ViT grid (84, 24, 32) (LLM 84 x 12 x 16), spg 2,
// tokens_per_second 2, + <ve> + 9 text.
// hf-4.57: s = 15, t_rel(f) = f * int(2) * 2 = 4f -> t 15..347; h 15..26, w 15..30; the <ve>
//   after it at max = 347 + 1 = 348, the last text 357.
// hf-5.3: t = s * time_interval = 15 * (2 * int(2)) = 60 everywhere; h = 15 + n / (16 * 84),
//   w = 15 + n % 16; <ve> at 15 + max(12, 16) = 31, text 32..40 (31..40 with the <ve>).
// hf-main: t-major as hf-4.57, next text at 15 + 16 = 31.
TEST(Families, Qwen25VlIssue45381Fixture) {
  const std::string spec = "t14,s1,v84x12x16@2s,s1,t9";
  const std::size_t n = 14 + 1 + 84 * 12 * 16 + 1 + 9;
  for (const std::string& rules : kRules) {
    const PositionIds ids = idsOf("qwen2.5-vl", spec, rules);
    ASSERT_EQ(ids.size(), n);
    for (std::size_t i = 0; i < 84 * 12 * 16; ++i) {
      const Id3 id = ids.ids[15 + i];
      const double f = static_cast<double>(i / 192), r = static_cast<double>((i / 16) % 12),
                   c = static_cast<double>(i % 16);
      Id3 want;
      if (rules == "hf-5.3")
        want = {60, 15 + static_cast<double>(i / (16 * 84)), 15 + c};
      else
        want = {15 + 4 * f, 15 + r, 15 + c};
      ASSERT_EQ(id, want) << rules << " token " << 15 + i;
    }
    const double next = rules == "hf-4.57" ? 348 : 31;
    for (std::size_t k = 0; k < 10; ++k)
      EXPECT_EQ(ids.ids[n - 10 + k], (Id3{next + k, next + k, next + k})) << rules;
    const double maxId = rules == "hf-4.57" ? 357 : rules == "hf-5.3" ? 60 : 347;
    EXPECT_EQ(ids.ropeDelta, maxId + 1 - static_cast<double>(n)) << rules;
  }
}

// #45325: hf-5.3 time-scales still images too: with no video, second_per_grid_ts defaults to
// ones, so an image after 5 text tokens gets t = 5 * tokens_per_second(2) * 1 = 10; 5 before
// and after the fix. With a video, images take its entry, and the video then finds none.
TEST(Families, Qwen25VlIssue45325StillImagesScaled) {
  EXPECT_EQ(idsOf("qwen2.5-vl", "t5,i2x2", "hf-5.3").ids[5], (Id3{10, 5, 5}));
  EXPECT_EQ(idsOf("qwen2.5-vl", "t5,i2x2", "hf-4.57").ids[5], (Id3{5, 5, 5}));
  EXPECT_EQ(idsOf("qwen2.5-vl", "t5,i2x2", "hf-main").ids[5], (Id3{5, 5, 5}));
  ParameterSet tps3;
  tps3.set("tokens_per_second", 3);
  EXPECT_EQ(idsOf("qwen2.5-vl", "t5,i2x2", "hf-5.3", tps3).ids[5][0], 15.0);
  for (const char* spec : {"t5,i2x2,t2,v2x2x2@1s", "t2,v2x2x2@1s,t1,i2x2"}) {
    try {
      idsOf("qwen2.5-vl", spec, "hf-5.3");
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "rules");
      EXPECT_NE(std::string(e.what()).find("StopIteration"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(idsOf("qwen2.5-vl", spec, "hf-4.57"));
    EXPECT_NO_THROW(idsOf("qwen2.5-vl", spec, "hf-main"));
  }
}

// #48669: hf-4.57 casts second_per_grid_ts to int64: 0.5 s -> 0, t_rel = k * 0 * 2 = 0.
// hf-main: t_rel = trunc(f32(k) * f32(0.5 * 2)) = k. With 2/3 s and tps 2: f32(2 * 0.666..) =
// 1.33333337, k = 3: 3 * 1.33333337 = 4.0000001, which rounds to the float 4.0: t_rel 4.
// hf-5.3: t = s * 2 * int(0.5) = 0 for every token of a video starting at s = 2.
TEST(Families, Qwen25VlIssue48669FractionalSeconds) {
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@0.5s", "hf-4.57"), 0),
            (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@0.5s", "hf-main"), 0),
            (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "t2,v4x1x1@0.5s", "hf-5.3"), 0),
            (std::vector<double>{0, 1, 0, 0, 0, 0}));
  Layout l = parseLayoutSpec("v4x1x1");
  l.segments[0].secondsPerGrid = 2.0 / 3.0;  // temporal_patch_size 2 / fps 3
  ParameterSet main;
  main.set("rules", 2);
  EXPECT_EQ(axis(findDesign("qwen2.5-vl").ids(l, main), 0), (std::vector<double>{0, 1, 2, 4}));
  // Without its own seconds per grid a video takes 2 / fps: fps 4 -> 0.5 s.
  ParameterSet fps4 = main;
  fps4.set("fps", 4);
  EXPECT_EQ(axis(findDesign("qwen2.5-vl").ids(parseLayoutSpec("v4x1x1"), fps4), 0),
            (std::vector<double>{0, 1, 2, 3}));
  // int64 arithmetic stays exact past float32's 2^24: 3600 s per grid, k = 4095: 4095 * 3600 * 2.
  EXPECT_EQ(idsOf("qwen2.5-vl", "v4096x1x1@3600s", "hf-4.57").ids.back()[0], 29484000.0);
  // A fractional tokens_per_second makes the product float32, truncated: k * 1 * 0.5.
  ParameterSet half;
  half.set("tokens_per_second", 0.5);
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v4x1x1@1s", "hf-4.57", half), 0),
            (std::vector<double>{0, 0, 1, 1}));
  // 2 s per grid (the default fps 2 gives 1 s): hf-4.57 t_rel = k * 2 * 2.
  EXPECT_EQ(axis(idsOf("qwen2.5-vl", "v3x1x1@2s", "hf-4.57"), 0), (std::vector<double>{0, 4, 8}));
}

// Qwen2-VL (t_rel = k), text 3 + a 3 x 2 x 2 video + text 1:
// hf-4.57: s = 3, (3 + f, 3 + r, 3 + c), max = 5, next text 6.
// hf-5.3: t = 3 * 1 everywhere; n-th token h = 3 + n / (2 * 3), w = 3 + n % 2; next 3 + 2 = 5.
// hf-main: (3 + f, 3 + r, 3 + c), next 5.
TEST(Families, Qwen2VlVideoUnderEachRuleSet) {
  std::vector<Id3> v457, v53, vmain;
  for (auto* v : {&v457, &v53, &vmain}) text(*v, 0, 3);
  for (int f = 0; f < 3; ++f)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 2; ++c) {
        const int n = f * 4 + r * 2 + c;
        v457.push_back({3.0 + f, 3.0 + r, 3.0 + c});
        vmain.push_back({3.0 + f, 3.0 + r, 3.0 + c});
        v53.push_back({3, 3.0 + n / 6, 3.0 + n % 2});
      }
  text(v457, 6, 1);
  text(v53, 5, 1);
  text(vmain, 5, 1);
  EXPECT_EQ(idsOf("qwen2-vl", "t3,v3x2x2,t1", "hf-4.57").ids, v457);
  EXPECT_EQ(idsOf("qwen2-vl", "t3,v3x2x2,t1", "hf-5.3").ids, v53);
  EXPECT_EQ(idsOf("qwen2-vl", "t3,v3x2x2,t1", "hf-main").ids, vmain);
  EXPECT_EQ(idsOf("qwen2-vl", "t3,v3x2x2,t1", "hf-main").ropeDelta, 6.0 - 16.0);
}

// Several images with odd grids, text 2 + 2x3 image + text 1 + 3x1 image + text 1: image 1 at
// s = 2 (h 2..3, w 2..4), next text 2 + max(2, 3) = 5 = max + 1; image 2 at 6 (h 6..8, w 6),
// next 9. Every rule set and family agrees (T' = 1), except Qwen2.5-VL under hf-5.3 (#45325).
TEST(Families, SeveralImagesWithOddGrids) {
  std::vector<Id3> want;
  text(want, 0, 2);
  still(want, 2, 2, 3);
  text(want, 5, 1);
  still(want, 6, 3, 1);
  text(want, 9, 1);
  for (const std::string& family : kFamilies)
    for (const std::string& rules : kRules) {
      if (family == "qwen2.5-vl" && rules == "hf-5.3") continue;
      const PositionIds ids = idsOf(family, "t2,i2x3,t1,i3x1,t1", rules);
      EXPECT_EQ(ids.ids, want) << family << " " << rules;
      EXPECT_EQ(ids.ropeDelta, 10.0 - 13.0) << family << " " << rules;
    }
  // hf-5.3 Qwen2.5-VL: image t = s * 2: 4 and 12; h and w as above.
  const PositionIds q = idsOf("qwen2.5-vl", "t2,i2x3,t1,i3x1,t1", "hf-5.3");
  EXPECT_EQ(q.ids[2], (Id3{4, 2, 2}));
  EXPECT_EQ(q.ids[9], (Id3{12, 6, 6}));
  EXPECT_EQ(q.ids.back(), (Id3{9, 9, 9}));
}

// ERNIE-4.5-VL: the layout's video is already temporally merged (T' = T / 2). Text 2,
// <VIDEO_START> at 2, a 3 x 1 x 2 video at s = 3, <VIDEO_END>: hf-4.57 (3 + f, 3, 3 + c), end
// at max(5, 3, 4) + 1 = 6; hf-main the same ids, end at 3 + max(1, 2) = 5; hf-5.3 t = 3,
// h = 3 + n / 6 = 3, w = 3 + n % 2, end at 5.
TEST(Families, ErnieVideoUnderEachRuleSet) {
  const std::string spec = "t2,ernie4.5-vl:v3x1x2";  // <VIDEO_START> video <VIDEO_END>
  for (const std::string& rules : kRules) {
    const PositionIds ids = idsOf("ernie4.5-vl", spec, rules);
    ASSERT_EQ(ids.size(), 2u + 1 + 6 + 1);
    EXPECT_EQ(ids.ids[2], (Id3{2, 2, 2}));  // <VIDEO_START>
    for (int n = 0; n < 6; ++n) {
      const Id3 id = ids.ids[3 + n];
      const Id3 want =
          rules == "hf-5.3" ? Id3{3, 3, 3.0 + n % 2} : Id3{3.0 + n / 2, 3, 3.0 + n % 2};
      EXPECT_EQ(id, want) << rules << " " << n;
    }
    const double end = rules == "hf-4.57" ? 6 : 5;  // <VIDEO_END>
    EXPECT_EQ(ids.ids.back(), (Id3{end, end, end})) << rules;
  }
}

// Videos with timestamps. GLM-4.1V: text 3, then <bov>, per frame <boi> frame <eoi> "ts",
// <eov>; a 2 x 2 x 2 video: <bov> 3, <boi> 4, frame 0 at s = 5 (h, w 5..6), <eoi> 7, ts 8,
// <boi> 9, frame 1 at 10, <eoi> 12, ts 13, <eov> 14. 19 tokens, delta = 15 - 19 = -4.
// Qwen3-VL: per frame "ts(2) <vs> frame <ve>": ts 0..1, <vs> 2, frame at 3 (h, w 3..4), <ve> 5,
// ts 6..7, <vs> 8, frame at 9, <ve> 11.
TEST(Families, VideosWithTimestamps) {
  std::vector<Id3> glm;
  text(glm, 0, 5);
  still(glm, 5, 2, 2);
  text(glm, 7, 3);
  still(glm, 10, 2, 2);
  text(glm, 12, 3);
  std::vector<Id3> qwen;
  text(qwen, 0, 3);
  still(qwen, 3, 2, 2);
  text(qwen, 5, 4);
  still(qwen, 9, 2, 2);
  text(qwen, 11, 1);
  for (const std::string& rules : kVideoRules) {
    const PositionIds g = idsOf("glm4v", "t3,glm4v:v2x2x2@1s/ts1", rules);
    EXPECT_EQ(g.ids, glm) << rules;
    EXPECT_EQ(g.ropeDelta, -4.0);
    for (const char* family : {"qwen3-vl", "qwen3.5"})
      EXPECT_EQ(idsOf(family, "qwen3-vl:v2x2x2@0.5s/ts2", rules).ids, qwen) << family << rules;
    // A multi-frame video segment in a per-frame family: its frames back to back, each a
    // block at t = its start: text 1, frame 0 at 1 (h 1..2), frame 1 at 3 (h 3..4), text 5.
    std::vector<Id3> frames;
    text(frames, 0, 1);
    still(frames, 1, 2, 2);
    still(frames, 3, 2, 2);
    text(frames, 5, 1);
    EXPECT_EQ(idsOf("qwen3-vl", "t1,v2x2x2,t1", rules).ids, frames) << rules;
  }
}

// Where the rule sets agree: with T' = 1 in every block (images; frames of Qwen3-VL, Qwen3.5,
// GLM; one-patch videos) all three give the same ids, except Qwen2.5-VL under hf-5.3, which
// time-scales every block (#45325). They part when a one-block video has T' > 1.
TEST(Families, RuleSetsAgreeWhenEveryBlockHasOneTemporalPatch) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 40; ++trial) {
    Layout l;
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      const int rows = 1 + static_cast<int>(rng() % 5), cols = 1 + static_cast<int>(rng() % 5);
      switch (rng() % 4) {
        case 0:
          l.segments.push_back(Segment::image(rows, cols));
          break;
        case 1:
          l.segments.push_back(Segment::video(1, rows, cols));
          break;
        case 2:
          l.segments.push_back(Segment::text(1, TextRole::Special));
          break;
        default:
          l.segments.push_back(Segment::text(1 + static_cast<int>(rng() % 4)));
      }
    }
    for (const std::string& family : kFamilies) {
      const PositionDesign& d = findDesign(family);
      ParameterSet p;
      p.set("rules", 0);
      const PositionIds a = d.ids(l, p);
      p.set("rules", 2);
      EXPECT_EQ(d.ids(l, p).ids, a.ids) << family << " " << formatLayoutSpec(l);
      if (family == "qwen2.5-vl") continue;
      p.set("rules", 1);
      EXPECT_EQ(d.ids(l, p).ids, a.ids) << family << " " << formatLayoutSpec(l);
    }
  }
  // A one-block video with T' > max(H', W') parts them (next text 6 vs 5 above).
  EXPECT_NE(idsOf("qwen2-vl", "v3x2x2,t1", "hf-4.57").ids,
            idsOf("qwen2-vl", "v3x2x2,t1", "hf-main").ids);
}

// The rotary of each family's released checkpoint: theta_k = base^(-2k / rotary dim), the axis
// per slot as the reference doc states it, the pair layout and partial rotary.
TEST(Families, FrequencyPlansMatchTheDirectFormula) {
  struct Want {
    std::string family;
    int headDim, rotaryDim;
    double base;
    PairLayout pairs;
    std::function<Axis(int)> axisOf;
  };
  const std::vector<Want> wants = {
      {"qwen2-vl", 128, 128, 1e6, PairLayout::NeoX,
       [](int k) { return k < 16   ? Axis::T
                          : k < 40 ? Axis::H
                                   : Axis::W; }},
      {"qwen2.5-vl", 128, 128, 1e6, PairLayout::NeoX,
       [](int k) { return k < 16   ? Axis::T
                          : k < 40 ? Axis::H
                                   : Axis::W; }},
      // apply_interleaved_mrope: slots 1, 4, 7, .. below 3*20 are h, 2, 5, 8, .. below 60 w.
      {"qwen3-vl", 128, 128, 5e6, PairLayout::NeoX,
       [](int k) {
         return k >= 60 ? Axis::T : k % 3 == 0 ? Axis::T : k % 3 == 1 ? Axis::H : Axis::W;
       }},
      {"qwen3.5", 256, 64, 1e7, PairLayout::NeoX,
       [](int k) {
         if (k % 3 == 1 && k < 33) return Axis::H;
         if (k % 3 == 2 && k < 30) return Axis::W;
         return Axis::T;
       }},
      {"glm4v", 128, 64, 1e4, PairLayout::GptJ,
       [](int k) { return k < 8    ? Axis::T
                          : k < 20 ? Axis::H
                                   : Axis::W; }},
      {"ernie4.5-vl", 128, 128, 5e5, PairLayout::GptJ,
       [](int k) { return k >= 44      ? Axis::T
                          : k % 2 == 0 ? Axis::H
                                       : Axis::W; }},
  };
  for (const Want& w : wants) {
    const FrequencySpec f = findFamily(w.family).defaultFrequency();
    EXPECT_EQ(f.rotary.headDim, w.headDim) << w.family;
    EXPECT_EQ(f.rotary.effectiveRotaryDim(), w.rotaryDim) << w.family;
    EXPECT_EQ(f.rotary.base, w.base) << w.family;
    EXPECT_EQ(f.rotary.pairs, w.pairs) << w.family;
    const PairTable t = resolvePairs(f);
    ASSERT_EQ(t.size(), w.rotaryDim / 2) << w.family;
    // cos/sin at a displacement with distinct components, per slot, against the formula.
    const Id3 delta{3, 5, 7};
    const Phasor ph = computePhasor(t, delta);
    for (int k = 0; k < t.size(); ++k) {
      const double theta = std::pow(w.base, -2.0 * k / w.rotaryDim);
      const Axis a = w.axisOf(k);
      EXPECT_EQ(t.axis[k], a) << w.family << " slot " << k;
      EXPECT_NEAR(t.theta[k], theta, 1e-15 * theta) << w.family << " slot " << k;
      const double phase = theta * delta[static_cast<int>(a)];
      EXPECT_NEAR(ph.pairs[k].re, std::cos(phase), 1e-12) << w.family << " slot " << k;
      EXPECT_NEAR(ph.pairs[k].im, std::sin(phase), 1e-12) << w.family << " slot " << k;
    }
  }
}

// Golden: mrope-interleave cos at token 7 of the canonical 29-token case (an image token with
// ids (6, 6, 7)), first six values, theta 5e6.
TEST(Families, Qwen3VlGoldenCosAtToken7) {
  const PositionIds ids =
      idsOf("qwen3-vl", "t5,qwen3-vl:i2x2,t3,s1,v1x2x2#0,s1,t2,s1,v1x2x2#0,s1,t1", "hf-4.57");
  ASSERT_EQ(ids.ids[7], (Id3{6, 6, 7}));
  const Phasor ph =
      computePhasor(resolvePairs(findFamily("qwen3-vl").defaultFrequency()), ids.ids[7]);
  const double golden[6] = {0.96017, 0.002591, -0.3799, -0.973676, -0.657318, -0.50285};
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(ph.pairs[k].re, golden[k], 5e-5) << "slot " << k;
}

TEST(FamilyLayout, ModelItemsExpandToTheProcessorsTokens) {
  auto kinds = [](const Layout& l) {
    std::string s;
    for (const Segment& seg : l.segments) s += formatLayoutSpec(Layout{{seg}}) + " ";
    return s;
  };
  EXPECT_EQ(kinds(parseLayoutSpec("qwen2.5-vl:i3x3")), "s1 i3x3 s1 ");
  EXPECT_EQ(kinds(parseLayoutSpec("qwen2-vl:v4x2x2@0.5s")), "s1 v4x2x2@0.5s s1 ");
  EXPECT_EQ(kinds(parseLayoutSpec("ernie4.5-vl:v2x2x2")), "s1 v2x2x2 s1 ");
  EXPECT_EQ(kinds(parseLayoutSpec("qwen3-vl:v2x2x2@1s/ts3")),
            "ts3 s1 v1x2x2#0@1s s1 ts3 s1 v1x2x2#0@1s s1 ");
  EXPECT_EQ(kinds(parseLayoutSpec("glm4v:v2x2x2")), "s1 s1 v1x2x2#0 s1 ts1 s1 v1x2x2#0 s1 ts1 s1 ");
  // Frames are numbered by the video entries before them.
  const Layout l = parseLayoutSpec("v2x2x2,qwen3.5:v1x1x1,t1,glm4v:v1x1x1");
  EXPECT_EQ(l.segments[0].videoItem, -1);
  EXPECT_EQ(l.segments[3].videoItem, 1);
  EXPECT_EQ(l.segments[8].videoItem, 2);  // s1 s1 before it: <bov> <boi>
  EXPECT_EQ(l.segments[1].role, TextRole::Timestamp);
  EXPECT_EQ(l.segments[2].role, TextRole::Special);
}

TEST(FamilyLayout, NewItemsRoundTrip) {
  const std::string spec =
      "t2,s1,ts3,v4x2x2@0.5s,v1x2x2#3@1s,v1x1x1@0.6666666666666666s,qwen3-vl:v2x2x2@1s/ts2,"
      "glm4v:i2x2,ernie4.5-vl:v2x1x1,t1";
  const Layout l = parseLayoutSpec(spec);
  EXPECT_EQ(l.segments[1].role, TextRole::Special);
  EXPECT_EQ(l.segments[2].role, TextRole::Timestamp);
  EXPECT_EQ(l.segments[3].secondsPerGrid, 0.5);
  EXPECT_EQ(l.segments[4].videoItem, 3);
  EXPECT_EQ(l.segments[5].secondsPerGrid, 2.0 / 3.0);
  const std::string out = formatLayoutSpec(l);
  EXPECT_EQ(parseLayoutSpec(out), l) << out;
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec(out)), out);
  // Either suffix order reads the same; "s" after the seconds is optional.
  EXPECT_EQ(parseLayoutSpec("v1x2x2@1#3"), parseLayoutSpec("v1x2x2#3@1s"));
  // A scene keeps them, and a file video's timing in video_timing.
  Scene s = defaultScene();
  s.layout = l;
  s.design = "qwen2.5-vl";
  s.designParams.set("rules", 1);
  const Scene back = sceneFromJson(sceneToJson(s));
  EXPECT_EQ(back.layout, s.layout);
  EXPECT_EQ(back.designParams, s.designParams);
  EXPECT_NE(sceneToJson(s).find("\"rules\": \"hf-5.3\""), std::string::npos);
}

// A video made from files has no spec suffix: the scene keeps its timing in "video_timing".
TEST(FamilyLayout, SceneKeepsAFileVideosTiming) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t2,vid:" + std::string(ROPESCOPE_SAMPLES) + "/moving.gif,v1x2x2@2s");
  ASSERT_TRUE(s.layout.segments[1].source.isFile());
  s.layout.segments[1].secondsPerGrid = 0.75;
  s.layout.segments[1].videoItem = -1;
  const std::string json = sceneToJson(s);
  EXPECT_NE(json.find("\"video_timing\""), std::string::npos);
  const Scene back = sceneFromJson(json);
  EXPECT_EQ(back.layout.segments[1].secondsPerGrid, 0.75);
  EXPECT_EQ(back.layout.segments[2].secondsPerGrid, 2.0);
  EXPECT_EQ(back.layout, s.layout);
  // Without timing on a file video the key is left out, and old scene files stay valid.
  s.layout.segments[1].secondsPerGrid = 0.0;
  EXPECT_EQ(sceneToJson(s).find("video_timing"), std::string::npos);
}

TEST(FamilyLayout, BadItemsAreRefusedWithTheForm) {
  const std::pair<const char*, const char*> bad[] = {
      {"s0", "text length must be 1.."},
      {"ts", "missing number"},
      {"sx", "missing number"},
      {"v2x2x2#0", "has one temporal patch (got 2)"},
      {"v1x2x2@0s", "@SECONDS takes the seconds per grid in (0, 3600]"},
      {"v1x2x2@-1", "@SECONDS takes"},
      {"v1x2x2@4000s", "@SECONDS takes"},
      {"v1x2x2@nan", "@SECONDS takes"},
      {"v1x2x2@", "@SECONDS takes"},
      {"v1x2x2#", "#ITEM takes"},
      {"v1x2x2#-1", "#ITEM takes"},
      {"v1x2x2#1#2", "one #ITEM per video"},
      {"i2x2@1s", "is not a whole number"},
      {"foo:i2x2", "unknown prefix \"foo\" (accepted: img, vid, aud, qwen2-vl,"},
      {"qwen2-vl:v2x2x2/ts3", "qwen2-vl videos have no timestamp text"},
      {"qwen3-vl:i2x2/ts1", "images have no timestamp text"},
      {"qwen3-vl:v2x2x2/ts0", "/ts<K> takes the tokens of one timestamp, 1..64"},
      {"qwen3-vl:v2x2x2/tx2", "/ts<K> takes"},
      {"qwen3-vl:v1x2x2#1", "drop #ITEM"},
      {"qwen3-vl:t5", "a model's item is FAMILY:i<H>x<W> or FAMILY:v"},
      {"glm4v:", "a model's item is"},
  };
  for (const auto& [spec, text] : bad) {
    try {
      parseLayoutSpec(std::string("t1,") + spec);
      ADD_FAILURE() << "accepted " << spec;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "layout") << spec;
      EXPECT_NE(std::string(e.what()).find("layout item 2"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << spec << ": " << e.what();
    }
  }
  // Segments built in code are held to the same rules.
  Layout l = parseLayoutSpec("i2x2");
  l.segments[0].role = TextRole::Special;
  EXPECT_THROW(validateLayout(l), InputError);
  l = parseLayoutSpec("t2");
  l.segments[0].secondsPerGrid = 1.0;
  EXPECT_THROW(validateLayout(l), InputError);
  l = parseLayoutSpec("v1x2x2");
  l.segments[0].secondsPerGrid = std::nan("");
  EXPECT_THROW(validateLayout(l), InputError);
  // A scene's video_timing must match the layout's videos.
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t1,v1x2x2");
  std::string json = sceneToJson(s);
  json.replace(json.find("\"layout\""), 0, "\"video_timing\": [null, null],\n  ");
  EXPECT_NE(messageOf([&] { sceneFromJson(json); }).find("video_timing has 2 entries"),
            std::string::npos);
  json = sceneToJson(s);
  json.replace(json.find("\"layout\""), 0, "\"video_timing\": [{\"seconds_per_grid\": 1}],\n  ");
  EXPECT_NE(messageOf([&] { sceneFromJson(json); }).find("belongs to a plain video"),
            std::string::npos);
}
