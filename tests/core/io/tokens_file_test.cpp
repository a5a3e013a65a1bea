// Processor outputs: hand-made files as each family's processor writes them
// (processing_qwen2_vl.py, processing_qwen3_vl.py, processing_glm4v.py,
// processing_ernie4_5_vl_moe.py), read into the layout whose segments are the token sequence;
// padding, mm_token_type_ids absent and present, keys to skip, and counts that disagree; and the
// whole-number .npy reader check-ids reads position-id dumps with.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"
#include "temp_dir.h"

using namespace ropescope;
using json = nlohmann::json;
using Ids = std::vector<long long>;

namespace {

struct ModelsLocator : ::testing::Environment {
  void SetUp() override { setModelLocator(modelFolderLocator(ROPESCOPE_MODELS)); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new ModelsLocator);

// Qwen2-VL .. Qwen3-VL token ids (config.json): vision start/end, image pad, video pad.
constexpr long long kVs = 151652, kVe = 151653, kImg = 151655, kVid = 151656, kPad = 151643;

Ids repeat(long long id, int n) {
  return Ids(static_cast<std::size_t>(n), id);
}
Ids cat(std::initializer_list<Ids> parts) {
  Ids out;
  for (const Ids& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Segment text(int n, TextRole r = TextRole::Plain) {
  return Segment::text(n, r);
}
Segment special(int n = 1) {
  return Segment::text(n, TextRole::Special);
}
Segment stamp(int n) {
  return Segment::text(n, TextRole::Timestamp);
}
Segment frame(int h, int w, int item) {
  Segment s = Segment::video(1, h, w);
  s.videoItem = item;
  return s;
}

template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

Layout layoutOf(const json& j, const std::string& model) {
  return layoutFromTokens(tokensFromJson(j.dump()), readModelConfig(model));
}

// Qwen2.5-VL: 3 text tokens, <|vision_start|>, an image of ViT grid (1, 4, 6) = 2 x 3 LLM
// tokens after the 2x2 merge, <|vision_end|>, 2 text tokens; batch of one, left padded by 2.
json qwenImage() {
  return {{"input_ids", {cat({{kPad, kPad, 10, 11, 12, kVs}, repeat(kImg, 6), {kVe, 13, 14}})}},
          {"attention_mask", {cat({{0, 0}, repeat(1, 13)})}},
          {"image_grid_thw", {{1, 4, 6}}}};
}

}  // namespace

TEST(TokensFile, QwenImageWithLeftPadding) {
  const TokenInput in = tokensFromJson(qwenImage().dump());
  EXPECT_EQ(in.paddingDropped, 2u);
  EXPECT_EQ(in.inputIds.size(), 13u);
  EXPECT_TRUE(in.mmTokenTypes.empty());
  const Layout l = layoutFromTokens(in, readModelConfig("qwen2.5-vl-7b"));
  EXPECT_EQ(l, (Layout{{text(3), special(), Segment::image(2, 3), special(), text(2)}}));

  // get_rope_index (hf-4.57) by hand: text 0, 1, 2; <vs> 3; the image starts at s = 4 with
  // (t, h, w) = (4, 4 + row, 4 + col); <ve> = max(4, 5, 6) + 1 = 7; text 8, 9.
  const PositionIds ids = findDesign("qwen2.5-vl").ids(l, {});
  const std::vector<Id3> want = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4},
                                 {4, 4, 5}, {4, 4, 6}, {4, 5, 4}, {4, 5, 5}, {4, 5, 6},
                                 {7, 7, 7}, {8, 8, 8}, {9, 9, 9}};
  EXPECT_EQ(ids.ids, want);
}

TEST(TokensFile, RightPaddingAndOneDimensionalFormsReadTheSame) {
  const TokenInput left = tokensFromJson(qwenImage().dump());
  json right = qwenImage();
  right["input_ids"] = {cat({{10, 11, 12, kVs}, repeat(kImg, 6), {kVe, 13, 14, kPad, kPad}})};
  right["attention_mask"] = {cat({repeat(1, 13), {0, 0}})};
  // The same tokens; only where the padding sat differs (kept: one entry per input_ids entry).
  TokenInput r = tokensFromJson(right.dump()), l = left;
  std::vector<bool> keptRight(13, true), keptLeft(13, true);
  keptRight.insert(keptRight.end(), {false, false});
  keptLeft.insert(keptLeft.begin(), {false, false});
  EXPECT_EQ(r.kept, keptRight);
  EXPECT_EQ(l.kept, keptLeft);
  r.kept.clear();
  l.kept.clear();
  EXPECT_EQ(r, l);
  json flat = qwenImage();
  flat["input_ids"] = flat["input_ids"][0];
  flat["attention_mask"] = flat["attention_mask"][0];
  EXPECT_EQ(tokensFromJson(flat.dump()), left);
}

TEST(TokensFile, KeysItDoesNotNeedAreSkipped) {
  json j = qwenImage();
  // A pixel_values of 6 * 3 * 2 * 14 * 14 floats per patch, and other keys of any shape.
  j["pixel_values"] = json::array();
  for (int p = 0; p < 24; ++p) j["pixel_values"].push_back(std::vector<double>(1176, 0.25));
  j["other"] = {{"a", {1, "x", nullptr}}, {"b", true}};
  j["token_type_ids"] = "not a list";
  const std::string text = "{\"pixel_values\": " + j["pixel_values"].dump() + ", " +
                           j.dump().substr(1);  // pixel_values first, as processors order it
  EXPECT_EQ(tokensFromJson(text), tokensFromJson(qwenImage().dump()));
}

TEST(TokensFile, MmTokenTypesDecideTheModalityWhenPresent) {
  json j = qwenImage();
  j["mm_token_type_ids"] = {cat({{0, 0, 0, 0, 0, 0}, repeat(1, 6), {0, 0, 0}})};
  const TokenInput in = tokensFromJson(j.dump());
  EXPECT_EQ(in.mmTokenTypes.size(), 13u);  // padding dropped from it too
  const ModelConfig m = readModelConfig("qwen2.5-vl-7b");
  EXPECT_EQ(layoutFromTokens(in, m), layoutFromTokens(tokensFromJson(qwenImage().dump()), m));
  // Types mark the image even where its token id is not the config's.
  j["input_ids"] = {cat({{kPad, kPad, 10, 11, 12, kVs}, repeat(999, 6), {kVe, 13, 14}})};
  EXPECT_EQ(layoutFromTokens(tokensFromJson(j.dump()), m),
            (Layout{{text(3), special(), Segment::image(2, 3), special(), text(2)}}));
}

TEST(TokensFile, Qwen25VideoIsOneBlockWithItsSecondsPerGrid) {
  // Video of 4 temporal patches of 4 x 4 patches: 4 x 2 x 2 = 16 tokens.
  const json j = {{"input_ids", {cat({{10, kVs}, repeat(kVid, 16), {kVe, 11}})}},
                  {"video_grid_thw", {{4, 4, 4}}},
                  {"second_per_grid_ts", {0.5}}};
  Segment v = Segment::video(4, 2, 2);
  v.secondsPerGrid = 0.5;
  EXPECT_EQ(layoutOf(j, "qwen2.5-vl-7b"), (Layout{{text(1), special(), v, special(), text(1)}}));
}

TEST(TokensFile, Qwen3VideoFramesWithTheirTimestamps) {
  // processing_qwen3_vl.py writes per temporal patch "<t seconds><vs> pad x H'W' <ve>"; here
  // each "<0.5 seconds>" takes 5 tokens.
  const Ids ts1 = {27, 15, 13, 20, 29}, ts2 = {27, 16, 13, 20, 29};
  const json j = {{"input_ids",
                   {cat({{10, 11, 12},
                         ts1,
                         {kVs},
                         repeat(kVid, 4),
                         {kVe},
                         ts2,
                         {kVs},
                         repeat(kVid, 4),
                         {kVe, 13, 14}})}},
                  {"video_grid_thw", {{2, 4, 4}}}};
  const Layout l = layoutOf(j, "qwen3-vl-8b");
  EXPECT_EQ(l, (Layout{{text(3), stamp(5), special(), frame(2, 2, 0), special(), stamp(5),
                        special(), frame(2, 2, 0), special(), text(2)}}));
  // hf-4.57 by hand: text 0..2, timestamp 3..7, <vs> 8, frame 0 (tokens 9..12) at s = 9: t 9,
  // h/w 9..10; <ve> 11 (token 13), timestamp 12..16, <vs> 17, frame 1 (tokens 20..23) at
  // s = 18; <ve> 20, text 21, 22 (tokens 25, 26).
  const PositionIds ids = findDesign("qwen3-vl").ids(l, {});
  ASSERT_EQ(ids.size(), 27u);
  EXPECT_EQ(ids.ids[9], (Id3{9, 9, 9}));
  EXPECT_EQ(ids.ids[12], (Id3{9, 10, 10}));
  EXPECT_EQ(ids.ids[13], (Id3{11, 11, 11}));
  EXPECT_EQ(ids.ids[20], (Id3{18, 18, 18}));
  EXPECT_EQ(ids.ids[26], (Id3{22, 22, 22}));
}

TEST(TokensFile, GlmFramesAreImagesInsideTheVideoSpan) {
  // processing_glm4v.py: <|begin_of_video|>, per temporal patch <|begin_of_image|> image
  // tokens <|end_of_image|> then int(seconds), <|end_of_video|>.
  constexpr long long bov = 151341, eov = 151342, boi = 151339, eoi = 151340, img = 151343;
  const json j = {
      {"input_ids",
       {cat({{10, bov, boi}, repeat(img, 4), {eoi, 51, boi}, repeat(img, 4), {eoi, 52, eov, 11}})}},
      {"video_grid_thw", {{2, 4, 4}}}};
  EXPECT_EQ(layoutOf(j, "glm-4.1v-9b-thinking"),
            (Layout{{text(1), special(2), frame(2, 2, 0), special(), stamp(1), special(),
                     frame(2, 2, 0), special(), stamp(1), special(), text(1)}}));
  // An image outside the span stays an image.
  const json k = {{"input_ids", {cat({{boi}, repeat(img, 4), {eoi}})}},
                  {"image_grid_thw", {{1, 4, 4}}}};
  EXPECT_EQ(layoutOf(k, "glm-4.1v-9b-thinking"),
            (Layout{{special(), Segment::image(2, 2), special()}}));
}

namespace {
// GLM-4.1V, an image [1, 4, 4] before a video [2, 4, 4] (the golden set's image_video case,
// tests/golden/data/hf_ids_golden.jsonl): transformers 4.53.2's processor writes the image with
// 10 image tokens and each frame with 1 (the per-frame expansion replaces the first image runs);
// its get_rope_index gives each run its grid's positions, laid over the tokens in order, and
// returns these ids (those of the correct layout, which 5.10.1's processor writes).
constexpr long long kBoi = 151339, kEoi = 151340, kBov = 151341, kEov = 151342, kGlmImg = 151343;
json glmImageBeforeVideo(int imageTokens) {
  return {{"input_ids",
           {cat({{1000, 1001, kBoi},
                 repeat(kGlmImg, imageTokens),
                 {kEoi, 1002, kBov, kBoi, kGlmImg, kEoi, 5048, kBoi, kGlmImg, kEoi, 5049, kEov,
                  1003, 1004}})}},
          {"image_grid_thw", {{1, 4, 4}}},
          {"video_grid_thw", {{2, 4, 4}}}};
}
const std::vector<std::vector<double>> kGlmImageBeforeVideoIds = {
    {0, 1, 2, 3, 3, 3, 3, 5, 6, 7, 8, 9, 9, 9, 9, 11, 12, 13, 14, 14, 14, 14, 16, 17, 18, 19, 20},
    {0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13, 14, 14, 15, 15, 16, 17, 18, 19, 20},
    {0,  1,  2,  3,  4,  3,  4,  5,  6,  7,  8,  9,  10, 9,
     10, 11, 12, 13, 14, 15, 14, 15, 16, 17, 18, 19, 20}};
}  // namespace

TEST(TokensFile, GlmRunsThatDisagreeWithTheirGridsTakeTheGridsIds) {
  const ModelConfig m = readModelConfig("glm-4.1v-9b-thinking");
  const std::size_t rules = static_cast<std::size_t>(parseRuleSet("4.53.2"));
  std::vector<std::string> warnings;
  const Layout l = layoutFromTokens(tokensFromJson(glmImageBeforeVideo(10).dump()), m, nullptr,
                                    {rules, &warnings});
  // The grids' layout: the image's 4 tokens, each frame's 4; the text runs as written.
  EXPECT_EQ(l, (Layout{{text(2), special(), Segment::image(2, 2), special(), text(1), special(2),
                        frame(2, 2, 0), special(), stamp(1), special(), frame(2, 2, 0), special(),
                        stamp(1), special(), text(2)}}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings.front(),
            "the image run at token 3 has 10 tokens but image_grid_thw[0] = [1, 4, 4] gives 4 "
            "(and 2 more runs); ids follow the grids as transformers 4.53.2 does");
  ParameterSet params;
  params.set("rules", static_cast<double>(rules));
  const PositionIds ids = findDesign("glm4v").ids(l, params);
  ASSERT_EQ(ids.size(), 27u);
  for (std::size_t i = 0; i < 27; ++i)
    EXPECT_EQ(ids.ids[i], (Id3{kGlmImageBeforeVideoIds[0][i], kGlmImageBeforeVideoIds[1][i],
                               kGlmImageBeforeVideoIds[2][i]}))
        << "token " << i;
  EXPECT_EQ(ids.ropeDelta, -6.0);

  // No rule set named: every GLM release reads runs so, and the warning says so.
  warnings.clear();
  EXPECT_EQ(layoutFromTokens(tokensFromJson(glmImageBeforeVideo(10).dump()), m, nullptr,
                             {std::nullopt, &warnings}),
            l);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings.front().find("ids follow the grids as transformers does at every release of "
                                  "GLM-4.1V / GLM-4.5V"),
            std::string::npos)
      << warnings.front();

  // Totals that differ: transformers raises a shape mismatch, and the reader names the release.
  const std::string e = errorOf([&] {
    layoutFromTokens(tokensFromJson(glmImageBeforeVideo(9).dump()), m, nullptr, {rules});
  });
  EXPECT_EQ(e,
            "transformers 4.53.2 raises on these tokens: the image run at token 3 has 9 tokens but "
            "image_grid_thw[0] = [1, 4, 4] gives 4 (and 2 more runs), and the grids give 27 "
            "positions for 26 tokens (get_rope_index lays them over the tokens in order: a shape "
            "mismatch)");
  // 4.53.0's processor (the golden set's image_video at 4.53.0, where transformers raised): the
  // image takes 11 tokens and the video is one frame of 1.
  const json v4530 = {{"input_ids",
                       {cat({{1000, 1001, kBoi},
                             repeat(kGlmImg, 11),
                             {kEoi, 1002, kBov, kBoi, kGlmImg, kEoi, 5048, kEov, 1003, 1004}})}},
                      {"image_grid_thw", {{1, 4, 4}}},
                      {"video_grid_thw", {{2, 4, 4}}}};
  const std::string e4530 = errorOf([&] {
    layoutFromTokens(tokensFromJson(v4530.dump()), m, nullptr,
                     {static_cast<std::size_t>(parseRuleSet("4.53.0"))});
  });
  EXPECT_EQ(e4530.rfind("transformers 4.53.0 raises on these tokens: the image run at token 3 "
                        "has 11 tokens",
                        0),
            0u)
      << e4530;
  EXPECT_NE(e4530.find("the grids give 20 positions for 24 tokens"), std::string::npos) << e4530;
  EXPECT_EQ(e4530.find('\n'), std::string::npos);
}

TEST(TokensFile, ErnieVideosMergeTwoFrames) {
  // ERNIE: video tokens T * H * W / (m^2 * 2): grid (4, 4, 4) -> 2 x 2 x 2 = 8.
  constexpr long long is = 101304, ie = 101305, im = 100295, vs = 101306, ve = 101307, vid = 103367;
  const json j = {{"input_ids", {cat({{10, is}, repeat(im, 4), {ie, vs}, repeat(vid, 8), {ve}})}},
                  {"image_grid_thw", {{1, 4, 4}}},
                  {"video_grid_thw", {{4, 4, 4}}}};
  EXPECT_EQ(layoutOf(j, "ernie-4.5-vl-28b-a3b"),
            (Layout{{text(1), special(), Segment::image(2, 2), special(2), Segment::video(2, 2, 2),
                     special()}}));
}

TEST(TokensFile, CountsThatDisagreeNameTheBlockAndBothCounts) {
  const ModelConfig m = readModelConfig("qwen2.5-vl-7b");
  const auto err = [&](const json& j) {
    return errorOf([&] { layoutFromTokens(tokensFromJson(j.dump()), m); });
  };
  json j = {{"input_ids", {cat({{10, kVs}, repeat(kImg, 5), {kVe}})}},
            {"image_grid_thw", {{1, 4, 6}}}};
  std::string e = err(j);
  EXPECT_NE(e.find("image 0 (image_grid_thw[0] = [1, 4, 6]): 6 tokens expected"), std::string::npos)
      << e;
  EXPECT_NE(e.find("input_ids hold 5"), std::string::npos) << e;
  j["image_grid_thw"] = {{1, 2, 2}, {1, 2, 2}};
  j["input_ids"] = {cat({{10, kVs}, repeat(kImg, 1), {kVe}})};
  e = err(j);
  EXPECT_NE(e.find("image_grid_thw has 2 entries, input_ids hold 1 image"), std::string::npos) << e;
  j["image_grid_thw"] = {{1, 2, 2}};
  j["input_ids"] = {cat({{10, kVs}, repeat(kImg, 3), {kVe}})};
  e = err(j);
  EXPECT_NE(e.find("2 more image tokens"), std::string::npos) << e;
  j["image_grid_thw"] = {{1, 5, 4}};
  e = err(j);
  EXPECT_NE(e.find("not a multiple of the spatial merge 2"), std::string::npos) << e;

  const ModelConfig q3 = readModelConfig("qwen3-vl-8b");
  const json frames = {
      {"input_ids", {cat({{kVs}, repeat(kVid, 4), {kVe, kVs}, repeat(kVid, 4), {kVe}})}},
      {"video_grid_thw", {{3, 4, 4}}}};
  e = errorOf([&] { layoutFromTokens(tokensFromJson(frames.dump()), q3); });
  EXPECT_NE(e.find("video 0 (video_grid_thw[0] = [3, 4, 4]): 3 frames expected, input_ids hold 2"),
            std::string::npos)
      << e;
}

TEST(TokensFile, BadFilesGiveOneLine) {
  const auto err = [](const std::string& text) { return errorOf([&] { tokensFromJson(text); }); };
  EXPECT_NE(err(R"({"input_ids": [[1, 2], [3, 4]]})").find("batch of 2"), std::string::npos);
  EXPECT_NE(err(R"({"attention_mask": [[1]]})").find("no \"input_ids\""), std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [[1, 2], [3]]})").find("ragged"), std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1, "2"]})").find("must hold numbers"), std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1, 2.5]})").find("input_ids\"[1] must be a whole number"),
            std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1, 2], "attention_mask": [1]})").find("has shape [1]"),
            std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1, 2], "mm_token_type_ids": [0, 4]})").find("0..3"),
            std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1], "input_ids": [2]})").find("given twice"), std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1], "video_grid_thw": [[2, 4, 4]], "second_per_grid_ts":
    [1.0, 2.0]})")
                .find("second_per_grid_ts\" has 2 entries"),
            std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [1], "image_grid_thw": [[1, 4]]})").find("[K, 3]"),
            std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [0, 0], "attention_mask": [0, 0]})").find("no tokens"),
            std::string::npos);
  EXPECT_NE(err("[1, 2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(err("{\"input_ids\": [1,").find("not valid JSON"), std::string::npos);
  EXPECT_NE(err(R"({"input_ids": [[[[[1]]]]]})").find("nesting"), std::string::npos);
}

TEST(TokensFile, ReadsAFile) {
  test::TempDir dir;
  const auto path = dir.path / "inputs.json";
  std::ofstream(path) << qwenImage().dump();
  EXPECT_EQ(readTokensFile(path.string()), tokensFromJson(qwenImage().dump()));
  const std::string e = errorOf([&] { readTokensFile((dir.path / "none.json").string()); });
  EXPECT_NE(e.find("does not exist"), std::string::npos) << e;
}

namespace {
// A .npy of `payload` bytes with numpy's header for `descr` and `shape`.
std::string npyBytes(const std::string& descr, const std::string& shape,
                     const std::string& payload) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string b = "\x93NUMPY\x01";
  b += '\0';
  b += static_cast<char>(h.size());
  b += static_cast<char>(h.size() >> 8);
  return b + h + payload;
}
}  // namespace

TEST(NpyNumbers, WholeNumberDumpsReadExactly) {
  // int64 2^40 + 1 and -3, little-endian; int32 7 big-endian; bool; uint8 255.
  std::string p(16, '\0');
  const long long a = (1LL << 40) + 1, b = -3;
  std::memcpy(p.data(), &a, 8);
  std::memcpy(p.data() + 8, &b, 8);
  NpyNumbers n = readNpyNumbersBytes(npyBytes("<i8", "2,", p));
  EXPECT_EQ(n.data, (std::vector<double>{1099511627777.0, -3.0}));
  EXPECT_EQ(n.shape, (std::vector<std::size_t>{2}));
  n = readNpyNumbersBytes(npyBytes(">i4", "1, 1", std::string("\0\0\0\x07", 4)));
  EXPECT_EQ(n.data, (std::vector<double>{7.0}));
  n = readNpyNumbersBytes(npyBytes("|b1", "2,", std::string("\x01\x00", 2)));
  EXPECT_EQ(n.data, (std::vector<double>{1.0, 0.0}));
  n = readNpyNumbersBytes(npyBytes("|u1", "1,", "\xff"));
  EXPECT_EQ(n.data, (std::vector<double>{255.0}));
  const std::string e = errorOf([] { readNpyNumbersBytes(npyBytes("<U4", "1,", "abcd")); });
  EXPECT_NE(e.find("unsupported dtype '<U4'"), std::string::npos) << e;
  // The float reader still refuses integers (q/k must be floats).
  EXPECT_NE(errorOf([&] { readNpyBytes(npyBytes("<i8", "2,", p)); }).find("unsupported dtype"),
            std::string::npos);
}

// Found by fuzzing (tests/fuzz/regressions/tokens/object-under-input-ids.json): an object as a
// key's value, with a number inside, reached an empty nesting stack (undefined behaviour).
TEST(TokensFile, AnObjectWhereAListBelongsIsOneLine) {
  for (const char* text : {R"({"input_ids": {"pixel_values": 2}})",
                           R"({"input_ids": [[1, {"a": 2}]]})", R"({"image_grid_thw": {}})"}) {
    try {
      tokensFromJson(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("must be a list of numbers (got an object)"), std::string::npos)
          << text << ": " << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
}

// Found by fuzzing (tests/fuzz/regressions/tokens/numbers-then-list.json): numbers and then a
// list at one level gave a shape the values did not fill, and the grid reader read past them.
// Lists and numbers mixed in either order, at any level, are one line.
TEST(TokensFile, NumbersAndListsAtOneLevelAreOneLine) {
  for (const char* text :
       {R"({"input_ids": [[1, 2]], "video_grid_thw": [20, 21, [2, 4, 4]]})",
        R"({"input_ids": [[1, 2]], "video_grid_thw": [[2, 4, 4], 5]})",
        R"({"input_ids": [1, [2, 3]]})", R"({"input_ids": [[1, [2]], [3, 4]]})"}) {
    try {
      tokensFromJson(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("mixes numbers and lists at one level"), std::string::npos)
          << text << ": " << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
}

// what current processors write.
TEST(TokensFile, BatchRowsTakeTheirOwnGrids) {
  // Row 0: image (1, 4, 6), row 1 (left padded): image (1, 4, 4); the grids concatenated.
  const json j = {{"input_ids",
                   {cat({{10, 11, 12, kVs}, repeat(kImg, 6), {kVe, 13, 14}}),
                    cat({{kPad, kPad, kPad, 20, 21, 22, kVs}, repeat(kImg, 4), {kVe, 23}})}},
                  {"attention_mask", {repeat(1, 13), cat({{0, 0, 0}, repeat(1, 10)})}},
                  {"image_grid_thw", {{1, 4, 6}, {1, 4, 4}}}};
  const ModelConfig m = readModelConfig("qwen2.5-vl-7b");
  const TokenRows rows = splitBatchRows(tokenRowsFromJson(j.dump()), m);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].imageGrids, (std::vector<std::array<long long, 3>>{{1, 4, 6}}));
  EXPECT_EQ(rows[1].imageGrids, (std::vector<std::array<long long, 3>>{{1, 4, 4}}));
  EXPECT_EQ(rows[1].paddingDropped, 3u);
  EXPECT_EQ(layoutFromTokens(rows[1], m).tokenCount(), 10u);
  // The same batch saved with np.savez (int64 arrays, a pixel_values skipped).
  const TokenRows npz = splitBatchRows(readTokenRows(ROPESCOPE_TEST_DATA "/qwen_batch.npz"), m);
  ASSERT_EQ(npz.size(), 2u);
  EXPECT_EQ(npz[0].inputIds, rows[0].inputIds);
  EXPECT_EQ(npz[1].imageGrids, rows[1].imageGrids);
  const std::string e =
      errorOf([] { readTokenRows(ROPESCOPE_TEST_DATA "/qwen_batch_compressed.npz"); });
  EXPECT_NE(e.find("np.savez_compressed"), std::string::npos) << e;
  // A grid left over, and a row whose tokens no grid describes, are refused naming the row.
  json extra = j;
  extra["image_grid_thw"].push_back({1, 4, 4});
  EXPECT_NE(errorOf([&] {
              splitBatchRows(tokenRowsFromJson(extra.dump()), m);
            }).find("image_grid_thw has 3 entries, input_ids hold 2 images in all 2 rows"),
            std::string::npos);
  json fewer = j;
  fewer["image_grid_thw"] = {{1, 4, 6}};
  EXPECT_NE(errorOf([&] {
              splitBatchRows(tokenRowsFromJson(fewer.dump()), m);
            }).find("tokens: row 1: input_ids hold 4 more image tokens"),
            std::string::npos);
}

TEST(TokensFile, AudioTypeThreeAndFloatArrays) {
  // mm_token_type_ids 3 marks audio (ProcessorMixin.create_mm_token_type_ids): read, and a VL
  // family refuses it in one line; float arrays (tolist() of a float tensor) read as integers.
  json j = qwenImage();
  j["mm_token_type_ids"] = {cat({{0, 0, 0, 0, 0, 0}, repeat(1, 6), {0, 0, 3}})};
  const TokenInput in = tokensFromJson(j.dump());
  EXPECT_EQ(in.mmTokenTypes.back(), 3);
  const std::string e = errorOf([&] { layoutFromTokens(in, readModelConfig("qwen2.5-vl-7b")); });
  EXPECT_NE(e.find("mm_token_type_ids[12] is 3 (audio), but Qwen2.5-VL takes no audio"),
            std::string::npos)
      << e;
  // Type ids that contradict the token ids.
  j["mm_token_type_ids"] = {cat({{0, 0, 0, 0, 0, 0, 0}, repeat(1, 5), {0, 0, 0}})};
  const std::string c = errorOf(
      [&] { layoutFromTokens(tokensFromJson(j.dump()), readModelConfig("qwen2.5-vl-7b")); });
  EXPECT_NE(c.find("mm_token_type_ids[4] is 0 (text) but input_ids[4] = 151655 is the image "
                   "token of Qwen2.5-VL"),
            std::string::npos)
      << c;
  json f = qwenImage();
  std::vector<double> asFloat;
  for (const auto& v : f["input_ids"][0]) asFloat.push_back(v.get<double>());
  f["input_ids"] = {asFloat};
  EXPECT_EQ(tokensFromJson(f.dump()), tokensFromJson(qwenImage().dump()));
}
