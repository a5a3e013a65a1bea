// `--model` / `--tokens` and `check-ids` end to end: the ropescope binary
// on a hand-made Qwen2.5-VL processor output and position_ids dumps written here byte by byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli_harness.h"

using namespace ropescope::cli_harness;
using json = nlohmann::json;

namespace {

class ModelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = makeWorkDir("ropescope-model-cli");
    // Qwen2.5-VL (config ids): 3 text, <|vision_start|> 151652, an image of ViT grid
    // (1, 4, 6) = 2 x 3 tokens of <|image_pad|> 151655, <|vision_end|> 151653, 2 text; left
    // padded by 2 (attention_mask 0), with a pixel_values the reader skips.
    std::vector<long long> ids = {151643, 151643, 10, 11, 12, 151652};
    ids.insert(ids.end(), 6, 151655);
    ids.insert(ids.end(), {151653, 13, 14});
    std::vector<int> mask(ids.size(), 1);
    mask[0] = mask[1] = 0;
    const json j = {
        {"input_ids", {ids}},
        {"attention_mask", {mask}},
        {"image_grid_thw", {{1, 4, 6}}},
        {"pixel_values", std::vector<std::vector<double>>(24, std::vector<double>(1176, 0.5))}};
    std::ofstream(work_ / "inputs.json") << j.dump();
  }
  void TearDown() override { fs::remove_all(work_); }

  ProcessResult run(const std::vector<std::string>& args) { return runProcess(work_, work_, args); }

  // An int64 (or float32) .npy of `rows` x N (shape as given), as numpy writes it.
  void writeIds(const std::string& name, const std::vector<std::vector<long long>>& rows,
                const std::string& shape, bool asFloat = false) {
    std::string header = std::string("{'descr': '") + (asFloat ? "<f4" : "<i8") +
                         "', 'fortran_order': False, 'shape': (" + shape + "), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    for (const auto& r : rows)
      for (long long v : r) {
        if (asFloat) {
          const float f = static_cast<float>(v);
          bytes.append(reinterpret_cast<const char*>(&f), 4);
        } else {
          bytes.append(reinterpret_cast<const char*>(&v), 8);
        }
      }
    std::ofstream(work_ / name, std::ios::binary) << bytes;
  }

  fs::path work_;
};

// get_rope_index of the sequence above, hf-4.57, derived by hand: text 0, 1, 2; <vs> 3; image
// at s = 4: t 4, h 4 + row, w 4 + col; <ve> max(6) + 1 = 7; text 8, 9.
const std::vector<long long> kT = {0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 7, 8, 9};
const std::vector<long long> kH = {0, 1, 2, 3, 4, 4, 4, 5, 5, 5, 7, 8, 9};
const std::vector<long long> kW = {0, 1, 2, 3, 4, 5, 6, 4, 5, 6, 7, 8, 9};

}  // namespace

TEST_F(ModelCli, IdsListsEveryTokenWithItsTokenIdAndRole) {
  const ProcessResult r =
      run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "index,modality,segment,frame,row,col,t,h,w,token_id,role");
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 13u);
  EXPECT_EQ(rows[0], "0,text,0,,,,0,0,0,10,text");
  EXPECT_EQ(rows[3], "3,text,1,,,,3,3,3,151652,special");
  EXPECT_EQ(rows[5], "5,image,2,0,0,1,4,4,5,151655,image");
  EXPECT_EQ(rows[10], "10,text,3,,,,7,7,7,151653,special");
  EXPECT_EQ(rows[12], "12,text,4,,,,9,9,9,14,text");

  const ProcessResult j = run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json"});
  ASSERT_EQ(j.status, 0) << j.err;
  const json out = json::parse(j.out);
  EXPECT_EQ(out["design"], "qwen2.5-vl");
  ASSERT_EQ(out["tokens"].size(), 13u);
  for (std::size_t i = 0; i < 13; ++i) {
    EXPECT_EQ(out["tokens"][i]["id"], json({kT[i], kH[i], kW[i]})) << i;
  }
  EXPECT_EQ(out["tokens"][3]["token_id"], 151652);
  EXPECT_EQ(out["tokens"][3]["role"], "special");
  // rope_delta as the release returns it for this left-padded row: up to
  // 5.2 the padding counts, max 9 + 1 - 15 = -5 (the default hf-4.57 = 4.57.1); from 5.3.0
  // 9 + 1 - 13 = -3.
  EXPECT_EQ(out["rope_delta"], -5);
  const ProcessResult k =
      run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json", "--rules", "5.3.0"});
  ASSERT_EQ(k.status, 0) << k.err;
  EXPECT_EQ(json::parse(k.out)["rope_delta"], -3);
}

TEST_F(ModelCli, ModelSetsTheFrequencyPlan) {
  // GLM-4.5V: rotary dim 64 of head dim 128 (partial 0.5): 32 pairs, base 1e4, chunked 8/12/12.
  const ProcessResult r = run({"freqs", "--model", "glm-4.5v", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 33);
  EXPECT_NE(r.out.find("\n8,h,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n20,w,"), std::string::npos) << r.out;
  // The plan options after --model override it.
  const ProcessResult o = run({"freqs", "--model", "glm-4.5v", "--rotary-dim", "0", "--sections",
                               "16,24,24", "--format", "csv"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 65);
}

TEST_F(ModelCli, CheckIdsIdentical) {
  writeIds("p.npy", {kT, kH, kW}, "3, 1, 13");
  ProcessResult r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                         "--position-ids", "p.npy"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "identical (13 tokens, hf-4.57): matches transformers 4.49.0-5.2.0 and "
            "5.5.4-main\n");
  // [4, N] float32 with the text row first (v5 generation ids).
  writeIds("p4.npy", {kT, kT, kH, kW}, "4, 13", true);
  r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json", "--position-ids",
           "p4.npy", "--rules", "hf-main"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("identical (13 tokens, hf-main): matches transformers ", 0), 0u) << r.out;
}

TEST_F(ModelCli, CheckIdsNamesTheFirstDifference) {
  std::vector<long long> w = kW;
  w[5] = 99;
  writeIds("p.npy", {kT, kH, w}, "3, 13");
  const ProcessResult r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                               "--position-ids", "p.npy"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("hf-4.57: differs at token 5 (image, cell 0,0,1, token id 151655): "
                       "ropescope (4, 4, 5), dump (4, 4, 99); 1 of 13 tokens differ"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("matches no release: first difference at token 5"), std::string::npos)
      << r.out;
}

TEST_F(ModelCli, CheckIdsSaysWhichRuleSetTheDumpMatches) {
  // transformers 5.3-5.5.3 time-scales every vision group (#45325): with no video the
  // second_per_grid_ts iterator gives 1 s, so the image's t = s * tps * 1 = 4 * 2 = 8; h and w
  // and the text after it (s + max(H', W') = 7) as hf-4.57.
  std::vector<long long> t = kT;
  for (int i = 4; i < 10; ++i) t[i] = 8;
  writeIds("p.npy", {t, kH, kW}, "3, 1, 13");
  const ProcessResult r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                               "--position-ids", "p.npy"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("6 of 13 tokens differ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matches transformers 5.3.0-5.5.3\n"), std::string::npos) << r.out;
}

// A padded batch: row 0 the sequence above, row 1 five text tokens left-padded by
// 10; ids [3, 2, 15] as 4.57.1 returns them (padding at 1). rope_deltas up to 5.2 count the
// padding: row 0 9 + 1 - 15 = -5, row 1 4 + 1 - 15 = -10; from 5.3 9 + 1 - 13 = -3 and 0.
// The padding's positions are 1 up to 5.1.x, 0 from 5.2.0: the dump names only those releases.
TEST_F(ModelCli, CheckIdsChecksEveryRowOfABatch) {
  std::vector<long long> ids = {151643, 151643, 10, 11, 12, 151652};
  ids.insert(ids.end(), 6, 151655);
  ids.insert(ids.end(), {151653, 13, 14});
  std::vector<long long> row1(10, 151643);
  row1.insert(row1.end(), {20, 21, 22, 23, 24});
  std::vector<int> mask0(15, 1), mask1(15, 0);
  mask0[0] = mask0[1] = 0;
  for (int i = 10; i < 15; ++i) mask1[i] = 1;
  const json j = {{"input_ids", {ids, row1}},
                  {"attention_mask", {mask0, mask1}},
                  {"image_grid_thw", {{1, 4, 6}}}};
  std::ofstream(work_ / "batch.json") << j.dump();
  const auto writeBatch = [&](const std::string& name, long long pad) {
    std::vector<std::vector<long long>> rows;
    for (const auto* axis : {&kT, &kH, &kW}) {
      std::vector<long long> a = {pad, pad};
      a.insert(a.end(), axis->begin(), axis->end());
      std::vector<long long> b(10, pad);
      for (int i = 0; i < 5; ++i) b.push_back(i);
      rows.push_back(a);
      rows.push_back(b);
    }
    writeIds(name, rows, "3, 2, 15");
  };
  writeBatch("batch.npy", 1);
  writeBatch("batch0.npy", 0);
  ProcessResult r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json",
                         "--position-ids", "batch.npy", "--rope-deltas", "-5,-10"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "row 0: identical (13 tokens, hf-4.57): matches transformers 4.49.0-5.1.0\n"
            "row 1: identical (5 tokens, hf-4.57): matches transformers 4.49.0-5.1.0\n");
  r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json", "--position-ids",
           "batch0.npy", "--rope-deltas", "-3,0", "--rules", "5.5.4", "--row", "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "row 1: identical (5 tokens, 5.5.4): matches transformers 5.3.0-main\n");
  // The dump with padding at 1 under 5.5.4: the padding differs, the ids of the kept tokens not.
  r = run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json", "--position-ids",
           "batch.npy", "--rules", "5.5.4", "--row", "1"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("row 1: 5.5.4: differs at padding token 0: ropescope (0, 0, 0), dump "
                       "(1, 1, 1)"),
            std::string::npos)
      << r.out;
  // The views take one row.
  expectOneLineError(run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json"}), "row",
                     {"holds a batch of 2 sequences; pick one with --row 0..1"});
  expectOneLineError(
      run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json", "--row", "2"}), "range",
      {"--row 2 is out of range", "2 rows (0..1)"});
  r = run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "batch.json", "--row", "1", "--format",
           "csv"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r.out;  // header + 5 tokens
}

// GLM-4.1V, an image [1, 4, 6] before a video [2, 4, 4], as transformers 5.3.0's own processor
// writes it (the transformers oracle's hf_ids.py, executed: [["text",1],["image",[1,4,6]],
// ["text",1],["video",[2,4,4],1.0],["text",1]]): the image run holds 12 image tokens and each
// frame 1, and get_rope_index returns the ids of the grids, those 5.10.1 returns for its correct
// tokens.
TEST_F(ModelCli, GlmRunsThatDisagreeWithTheirGridsGetTheGridsIdsAndOneWarning) {
  const std::vector<long long> ids = {1000,   151339, 151343, 151343, 151343, 151343, 151343,
                                      151343, 151343, 151343, 151343, 151343, 151343, 151343,
                                      151340, 1001,   151341, 151339, 151343, 151340, 5048,
                                      151339, 151343, 151340, 5049,   151342, 1002};
  const std::vector<long long> types = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0};
  const std::vector<long long> t = {0, 1, 2,  2,  2,  2,  2,  2,  5,  6,  7,  8,  9, 9,
                                    9, 9, 11, 12, 13, 14, 14, 14, 14, 16, 17, 18, 19},
                               h = {0,  1,  2,  2,  2,  3,  3,  3,  5,  6,  7,  8,  9, 9,
                                    10, 10, 11, 12, 13, 14, 14, 15, 15, 16, 17, 18, 19},
                               w = {0, 1,  2,  3,  4,  2,  3,  4,  5,  6,  7,  8,  9, 10,
                                    9, 10, 11, 12, 13, 14, 15, 14, 15, 16, 17, 18, 19};
  const auto write = [&](std::size_t drop) {  // drop: a token left out (ids.size(): none)
    std::vector<long long> i = ids, y = types;
    if (drop < i.size()) {
      i.erase(i.begin() + static_cast<std::ptrdiff_t>(drop));
      y.erase(y.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    std::ofstream(work_ / "glm.json") << json{
        {"input_ids", {i}},
        {"mm_token_type_ids", {y}},
        {"image_grid_thw", {{1, 4, 6}}},
        {"video_grid_thw", {{2, 4, 4}}}}.dump();
  };
  write(ids.size());
  ProcessResult r =
      run({"ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--rules", "5.3.0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "ropescope: warning: the image run at token 2 has 12 tokens but image_grid_thw[0] = "
            "[1, 4, 6] gives 6 (and 2 more runs); ids follow the grids as transformers 5.3.0 "
            "does\n");
  const json j = json::parse(r.out);
  ASSERT_EQ(j["tokens"].size(), ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(j["tokens"][i]["id"], json::array({t[i], h[i], w[i]})) << "token " << i;

  // check-ids on transformers' own dump: identical, at every release that gives ids. The
  // warning names the --rules release the tokens were read at, as ids' does.
  writeIds("glm.npy", {t, h, w}, "3, 1, 27");
  r = run({"check-ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--position-ids",
           "glm.npy", "--rules", "5.3.0"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("identical (27 tokens", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("matches transformers 4.53.2-main\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err,
            "ropescope: warning: the image run at token 2 has 12 tokens but image_grid_thw[0] = "
            "[1, 4, 6] gives 6 (and 2 more runs); ids follow the grids as transformers 5.3.0 "
            "does\n");
  // A named set names its release (hf-4.57: transformers 4.57.1).
  r = run({"check-ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--position-ids",
           "glm.npy", "--rules", "hf-4.57"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("; ids follow the grids as transformers 4.57.1 does\n"), std::string::npos)
      << r.err;
  // --rules all names no one release: the reader speaks of every release of the family.
  r = run({"check-ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--position-ids",
           "glm.npy", "--rules", "all"});
  EXPECT_NE(r.err.find("ids follow the grids as transformers does at every release of GLM-4.1V"),
            std::string::npos)
      << r.err;

  // 4.53.0 gives each frame run the next video_grid_thw entry: IndexError.
  r = run({"ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--rules", "4.53.0"});
  expectOneLineError(r, "4.53.0", {"transformers 4.53.0 raises", "IndexError"});
  // One image token fewer: 26 tokens, 27 positions; transformers raises a shape mismatch.
  write(2);
  r = run({"ids", "--model", "glm-4.1v-9b-thinking", "--tokens", "glm.json", "--rules", "5.3.0"});
  expectOneLineError(r, "totals",
                     {"transformers 5.3.0 raises on these tokens: the image run at token 2 has 11 "
                      "tokens",
                      "the grids give 27 positions for 26 tokens"});
}

TEST_F(ModelCli, CheckIdsRefusesBadInput) {
  writeIds("two.npy", {kT, kH}, "2, 13");
  expectOneLineError(run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                          "--position-ids", "two.npy"}),
                     "2 rows", {"must be [3, N], [3, B, N]", "[2, 13]"});
  writeIds("batch.npy", {kT, kT, kH, kH, kW, kW}, "3, 2, 13");
  expectOneLineError(run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                          "--position-ids", "batch.npy"}),
                     "batch", {"hold 2 rows, the tokens file 1 row"});
  writeIds("short.npy", {{0}, {0}, {0}}, "3, 1");
  expectOneLineError(run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                          "--position-ids", "short.npy"}),
                     "length", {"hold 1 tokens, the layout 13"});
  expectOneLineError(run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json"}),
                     "no dump", {"--position-ids"});
  expectOneLineError(run({"check-ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json",
                          "--position-ids", "p.npy", "--rules", "hf-9"}),
                     "rules", {"unknown rule set \"hf-9\""});
  expectOneLineError(run({"ids", "--tokens", "inputs.json"}), "no model",
                     {"--tokens needs --model"});
  expectOneLineError(
      run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "inputs.json", "--layout", "t3"}), "both",
      {"either --tokens or --layout"});
  expectOneLineError(run({"ids", "--model", "no-such-model", "--layout", "t3"}), "name",
                     {"no shipped model of that name", "qwen2.5-vl-7b"});
  std::ofstream(work_ / "bad.json") << R"({"input_ids": [[1, 2], [3, 4]]})";
  expectOneLineError(run({"ids", "--model", "qwen2.5-vl-7b", "--tokens", "bad.json"}), "batch",
                     {"bad.json", "batch of 2"});
}

TEST_F(ModelCli, OmniVideoWithItsSoundEndToEnd) {
  // A Qwen2.5-Omni checkpoint folder (thinker_config nesting, as the released config) and what
  // its processor writes for 2 text tokens, a video of ViT grid (2, 2, 2) at 2 s per grid with
  // 3 audio tokens of its own sound, 1 text token: <|vision_bos|> 151652 <|audio_bos|> 151647,
  // frame 0 (chunk 0), the audio (chunk 0), frame 1 (chunk 1: t 50 reaches 2 s x 25),
  // <|audio_eos|> 151648 <|vision_eos|> 151653.
  fs::create_directories(work_ / "omni");
  std::ofstream(work_ / "omni" / "config.json") << R"({"model_type": "qwen2_5_omni",
    "thinker_config": {"audio_token_index": 151646, "image_token_index": 151655,
      "video_token_index": 151656, "position_id_per_seconds": 25, "seconds_per_chunk": 2,
      "text_config": {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                      "rope_scaling": {"mrope_section": [16, 24, 24]}},
      "vision_config": {"spatial_merge_size": 2, "patch_size": 14, "temporal_patch_size": 2}}})";
  const json tokens = {
      {"input_ids",
       {{7, 8, 151652, 151647, 151656, 151646, 151646, 151646, 151656, 151648, 151653, 9}}},
      {"video_grid_thw", {{2, 2, 2}}},
      {"video_second_per_grid", {2.0}},
      // 12 mel frames: ((12 - 1) // 2 + 1 - 2) // 2 + 1 = 3 audio tokens, as input_ids hold.
      {"feature_attention_mask", {std::vector<int>(12, 1)}}};
  std::ofstream(work_ / "omni.json") << tokens.dump();
  // get_rope_index (modeling_qwen2_5_omni.py) by hand: text 0, 1; the bos pair 2, 2; st 3:
  // frame 0 (3, 3, 3), audio 3, 4, 5, frame 1 (3 + 50, 3, 3); the last chunk is video chunk 1
  // (max 53): the eos pair 54, 54; text 55.
  const std::vector<long long> t = {0, 1, 2, 2, 3, 3, 4, 5, 53, 54, 54, 55};
  const std::vector<long long> hw = {0, 1, 2, 2, 3, 3, 4, 5, 3, 54, 54, 55};
  const ProcessResult ids =
      run({"ids", "--model", "omni", "--tokens", "omni.json", "--format", "csv"});
  ASSERT_EQ(ids.status, 0) << ids.err;
  EXPECT_NE(ids.out.find("\n6,audio,4,1,,,4,4,4,151646,"), std::string::npos) << ids.out;
  EXPECT_NE(ids.out.find("\n8,video,5,0,0,0,53,3,3,151656,"), std::string::npos) << ids.out;
  writeIds("omni.npy", {t, hw, hw}, "3, 1, 12");
  ProcessResult r =
      run({"check-ids", "--model", "omni", "--tokens", "omni.json", "--position-ids", "omni.npy"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_EQ(r.out.rfind("identical (12 tokens", 0), 0u) << r.out;
  // The eos pair one higher (as if it followed the audio chunk): the first difference is named.
  std::vector<long long> t2 = t, hw2 = hw;
  t2[9] = hw2[9] = 55;
  writeIds("off.npy", {t2, hw2, hw2}, "3, 12");
  r = run({"check-ids", "--model", "omni", "--tokens", "omni.json", "--position-ids", "off.npy"});
  EXPECT_EQ(r.status, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("token 9"), std::string::npos) << r.out;
  // A VL family's item with a sound: exit 2, one line.
  const ProcessResult bad = run({"ids", "--layout", "qwen2.5-vl:v2x1x1+a3"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("qwen2.5-vl takes no audio"), std::string::npos) << bad.err;
}

// freqs applies a config's scaling (and --rope on any design), pair by pair and per
// axis, with the attention factor; a bad key or value stops with one line and status 2.
TEST_F(ModelCli, FreqsShowsTheYarnScalingOfTheModelPerAxis) {
  const ProcessResult r = run({"freqs", "--model", "qwen2.5-vl-yarn-7b"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const json& rope = j.at("rope");
  EXPECT_EQ(rope.at("type"), "yarn");
  EXPECT_EQ(rope.at("attention_factor").get<double>(), 0.1 * std::log(4.0) + 1.0);
  EXPECT_NEAR(rope.at("logit_scale").get<double>(), 1.2965, 5e-5);
  const json want = {{"t", {{"unchanged", 16}, {"ramped", 0}, {"scaled", 0}, {"not_rotated", 0}}},
                     {"h", {{"unchanged", 8}, {"ramped", 16}, {"scaled", 0}, {"not_rotated", 0}}},
                     {"w", {{"unchanged", 0}, {"ramped", 0}, {"scaled", 24}, {"not_rotated", 0}}}};
  EXPECT_EQ(rope.at("per_axis"), want);
  const json& p63 = j.at("pairs").at(63);
  EXPECT_EQ(p63.at("scaling"), "scaled");
  EXPECT_NEAR(p63.at("theta").get<double>() / p63.at("theta_unscaled").get<double>(), 0.25, 1e-12);
  // The same scaling given on the command line over the plain model gives the same table.
  const ProcessResult cli =
      run({"freqs", "--model", "qwen2.5-vl-7b", "--rope", "yarn", "--rope-param", "factor=4",
           "--rope-param", "original_max_position_embeddings=32768"});
  ASSERT_EQ(cli.status, 0) << cli.err;
  EXPECT_EQ(cli.out, r.out);
  // Without a scaling the output is as before: no rope object, no per-pair scaling.
  const json plain = json::parse(run({"freqs", "--model", "qwen2.5-vl-7b"}).out);
  EXPECT_FALSE(plain.contains("rope"));
  EXPECT_FALSE(plain.at("pairs").at(0).contains("scaling"));
}

TEST_F(ModelCli, RopeOnAnyDesignAndItsRefusals) {
  // Decay takes the scaled frequencies: YaRN lowers the slow pairs, so the bound moves.
  const ProcessResult plain = run({"decay", "--max-distance", "50"});
  const ProcessResult scaled =
      run({"decay", "--max-distance", "50", "--rope", "linear", "--rope-param", "factor=8"});
  ASSERT_EQ(scaled.status, 0) << scaled.err;
  EXPECT_NE(plain.out, scaled.out);
  const auto refused = [&](const std::vector<std::string>& args, const std::string& line) {
    const ProcessResult r = run(args);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(r.err, "ropescope: " + line + "\n");
  };
  refused({"freqs", "--rope", "yarn", "--rope-param", "factor=0"},
          "--rope-param factor: factor must be in [1, 1000000] (got 0)");
  refused({"freqs", "--rope", "yarn", "--rope-param", "factor=nan"},
          "--rope-param factor must be a finite number in [1, 1000000] (got \"nan\")");
  refused({"freqs", "--rope", "yarn", "--rope-param", "scale=2"},
          "--rope-param scale: rope type yarn has no parameter \"scale\" (accepted: factor, "
          "original_max_position_embeddings, beta_fast, beta_slow, attention_factor, mscale, "
          "mscale_all_dim, truncate)");
  refused({"freqs", "--rope", "ntk"},
          "unknown rope type \"ntk\" (accepted: default, linear, dynamic, yarn, longrope, llama3, "
          "proportional)");
  refused({"freqs", "--rope-param", "factor=4"},
          "--rope-param needs --rope TYPE (default, linear, dynamic, yarn, longrope, llama3, "
          "proportional) or a --model whose config has a scaling");
  refused({"freqs", "--rope", "yarn", "--rope-param", "factor=4"},
          "rope type yarn needs original_max_position_embeddings (it takes: factor, "
          "original_max_position_embeddings, beta_fast, beta_slow, attention_factor, mscale, "
          "mscale_all_dim, truncate)");
  refused({"freqs", "--rope", "yarn", "--rope-param", "factor=4", "--rope-param",
           "original_max_position_embeddings=32768", "--rope-param", "beta_fast=1"},
          "rope yarn: beta_fast must be greater than beta_slow (got beta_fast 1, beta_slow 1)");
}

// A text-only model (text_model.h): its rotary with the scaling, 1-D ids from a text-only
// processor output, check-ids refused; a config with a rope block per layer type says which it
// used, and --layer-type picks another.
TEST_F(ModelCli, TextOnlyModelsAndLayerTypes) {
  std::ofstream(work_ / "text.json") << R"({"input_ids": [[1, 2, 3, 4, 5]]})";
  ProcessResult r = run({"ids", "--model", "llama-3.1-8b", "--tokens", "text.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json ids = json::parse(r.out);
  EXPECT_EQ(ids["design"], "hard");
  ASSERT_EQ(ids["tokens"].size(), 5u);
  EXPECT_EQ(ids["tokens"][4]["id"], json({4, 4, 4}));

  r = run({"freqs", "--model", "llama-3.1-8b"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json f = json::parse(r.out);
  EXPECT_EQ(f["rope"]["type"], "llama3");
  EXPECT_EQ(f["pairs"].size(), 64u);

  r = run(
      {"check-ids", "--model", "llama-3.1-8b", "--tokens", "text.json", "--position-ids", "p.npy"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "ropescope: check-ids compares a multimodal family's get_rope_index; model "
            "\"llama-3.1-8b\" is a text-only model (its ids are 0, 1, 2, ...)\n");

  r = run({"freqs", "--model", "gemma-4-style-proportional", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "ropescope: warning: model gemma-4-style-proportional has a rotary per layer type "
            "(full_attention, sliding_attention); these numbers are full_attention's "
            "(--layer N or --layer-type picks)\n");
  EXPECT_NE(r.out.find("\n64,t,0,"), std::string::npos) << r.out.substr(0, 400);  // not rotated
  r = run({"freqs", "--layer-type", "sliding_attention", "--model", "gemma-4-style-proportional",
           "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("these numbers are sliding_attention's"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("theta_unscaled"), std::string::npos);  // the sliding layers: no scaling
  r = run({"freqs", "--model", "gemma-4-style-proportional", "--layer-type", "global"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "ropescope: model config \"gemma-4-style-proportional\": layer type \"global\" has no "
            "block in rope_parameters (accepted: full_attention, sliding_attention)\n");
  r = run({"freqs", "--layer-type", "full_attention"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--layer-type needs --model"), std::string::npos) << r.err;
}

// A model whose rotary changes by layer: `layers` lists every layer, --layer N picks one's
// rotary for the other commands, a NoPE layer has none (never a decay of 0), and a layer out of
// range is refused in one line naming the range.
TEST_F(ModelCli, LayersAndTheLayerOption) {
  ProcessResult r = run({"layers", "--model", "gemma-3-4b-it"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0–4     sliding (window 1024)  θ 1e4 default, head 256\n"),
            std::string::npos)
      << r.out;
  r = run({"layers", "--model", "llama-4-scout-17b-16e", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json stack = json::parse(r.out);
  ASSERT_EQ(stack["layers"].size(), 48u);
  EXPECT_TRUE(stack["layers"][47]["rotary"].is_null());
  EXPECT_EQ(stack["layers"][46]["rotary"]["rope_type"], "llama3");

  // Layer 5 of Gemma 3 is a global layer: θ 1e6 divided by 8; layer 4 a sliding one, θ 1e4.
  r = run({"freqs", "--model", "gemma-3-4b-it", "--layer", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "ropescope: warning: model gemma-3-4b-it has a rotary per layer; these numbers are "
            "layer 5's (full_attention)\n");
  json f = json::parse(r.out);
  EXPECT_EQ(f["rope"]["type"], "linear");
  EXPECT_DOUBLE_EQ(f["pairs"][0]["theta"].get<double>(), 0.125);
  r = run({"freqs", "--model", "gemma-3-4b-it", "--layer", "4"});
  ASSERT_EQ(r.status, 0) << r.err;
  f = json::parse(r.out);
  EXPECT_DOUBLE_EQ(f["pairs"][1]["theta"].get<double>(), std::pow(1e4, -2.0 / 256));

  r = run({"decay", "--model", "llama-4-scout-17b-16e", "--layer", "3"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "ropescope: --layer 3: layer 3 of llama-4-scout-17b-16e has no rotary (a NoPE "
            "layer: no position encoding); `ropescope layers --model llama-4-scout-17b-16e` "
            "lists which layers have one\n");
  r = run({"freqs", "--model", "llama-4-scout-17b-16e"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("has layers without rotary (NoPE: 3, 7, 11,"), std::string::npos) << r.err;

  for (const char* bad : {"48", "-1", "x"}) {
    r = run({"freqs", "--model", "llama-4-scout-17b-16e", "--layer", bad});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  r = run({"freqs", "--model", "llama-4-scout-17b-16e", "--layer", "48"});
  EXPECT_EQ(r.err, "ropescope: --layer expects a whole number in 0..47 (got \"48\")\n");
  // Llama 4's layer types are not rope blocks: --layer-type picks the first layer of the type.
  r = run({"freqs", "--model", "llama-4-scout-17b-16e", "--layer-type", "chunked_attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("these numbers are layer 0's, the first chunked_attention"),
            std::string::npos)
      << r.err;
  r = run({"freqs", "--model", "llama-4-scout-17b-16e", "--layer-type", "full_attention"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("layer 3 of llama-4-scout-17b-16e has no rotary"), std::string::npos)
      << r.err;
  r = run({"freqs", "--model", "llama-4-scout-17b-16e", "--layer-type", "sliding_attention"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(accepted: chunked_attention, full_attention)"), std::string::npos)
      << r.err;
  r = run({"freqs", "--model", "gemma-3-4b-it", "--layer", "1", "--layer-type", "full_attention"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("give either --layer or --layer-type"), std::string::npos) << r.err;
  r = run({"freqs", "--layer", "1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--layer needs --model"), std::string::npos) << r.err;
  r = run({"layers"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("layers needs --model"), std::string::npos) << r.err;
}

// dynamic / longrope with a sequence: the frequencies of the sequence's own largest id (over
// all axes), as transformers' forward takes them; --max-position-id names another.
TEST_F(ModelCli, SequenceDependentScalingsTakeTheSequencesLargestId) {
  const auto freqsOf = [&](const std::string& layout, const std::vector<std::string>& more,
                           const std::string& design = "hard") {
    std::ofstream(work_ / "s.json") << R"({"format": "ropescope-scene", "version": 1, "layout": ")"
                                    << layout << R"(", "design": ")" << design << R"("})";
    std::vector<std::string> args = {
        "freqs",      "--scene",      "s.json",   "--plan",       "vanilla",
        "--head-dim", "128",          "--base",   "10000",        "--rope",
        "dynamic",    "--rope-param", "factor=2", "--rope-param", "max_position_embeddings=4096"};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessResult r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(r.out) : json();
  };
  const json longer = freqsOf("t5000", {});  // largest id 4999: seq_len 5000 > 4096
  EXPECT_EQ(longer["rope"]["switch_length"], 4096);
  EXPECT_EQ(longer["rope"]["switched"], true);
  const json shorter = freqsOf("t100", {});
  EXPECT_EQ(shorter["rope"]["switched"], false);
  // M-RoPE ids grow slower than tokens: 4,100 tokens whose largest id stays below 4096.
  const json picture = freqsOf("t4,i64x64", {}, "mrope");
  EXPECT_EQ(picture["rope"]["switched"], false);
  const json named = freqsOf("t5000", {"--max-position-id", "100"});
  EXPECT_EQ(named["rope"]["switched"], false);
  EXPECT_EQ(named["pairs"][63]["theta"], shorter["pairs"][63]["theta"]);
  EXPECT_NE(longer["pairs"][63]["theta"], shorter["pairs"][63]["theta"]);
}

// longrope's lists on the command line: read by core's list reader, checked by the rope type.
TEST_F(ModelCli, RopeParamListsAreReadAndCheckedByCore) {
  const std::vector<std::string> base = {"freqs",
                                         "--plan",
                                         "vanilla",
                                         "--head-dim",
                                         "8",
                                         "--rope",
                                         "longrope",
                                         "--rope-param",
                                         "original_max_position_embeddings=4096",
                                         "--rope-param",
                                         "max_position_embeddings=131072"};
  auto with = [&](const std::string& s, const std::string& l) {
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--rope-param", "short_factor=" + s, "--rope-param", "long_factor=" + l});
    return run(a);
  };
  ProcessResult r = with("1, 1.5,2,2.5", "2,3,4,5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["rope"]["type"], "longrope");
  r = with("1,x,2,2.5", "2,3,4,5");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "ropescope: --rope-param short_factor expects numbers separated by commas, one per "
            "pair (got \"x\" as item 1)\n");
  r = with("1,2", "2,3,4,5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("short_factor must have one factor per pair, 4 for rotary dim 8 (got 2)"),
            std::string::npos)
      << r.err;
}
