// `ropescope principles` end to end (text, JSON, the three row sets, --out written whole, bad
// input in one line with exit 2), and `ropescope ids --out` writing the id cloud as PLY or glTF
// by the extension.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& principlesWork() {
  static const fs::path d = makeWorkDir("ropescope-principles-cli");
  return d;
}

ProcessResult run(const std::string& command, const std::vector<std::string>& args) {
  std::vector<std::string> all{command};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(principlesWork(), principlesWork(), all, true);
}

// VideoRoPE on t8,i4x6,t8 (tests/core/principles_test.cpp works the numbers): the first text
// token after the image, 32, has h 9 at or below token 26's 10.
TEST(PrinciplesCli, JsonNamesTheFirstOverlap) {
  const ProcessResult r = run("principles", {"--layout", "t8,i4x6,t8", "--design", "videorope",
                                             "--plan", "videorope", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 1u);
  const json& row = j["rows"][0];
  EXPECT_EQ(row["design"], "videorope");
  EXPECT_EQ(row["coherence"]["verdict"], "fail");
  EXPECT_EQ(row["coherence"]["overlap"]["text_token"], 32);
  EXPECT_EQ(row["coherence"]["overlap"]["visual_token"], 26);
  EXPECT_EQ(row["coherence"]["overlap"]["axis"], "h");
  EXPECT_EQ(row["coherence"]["smallest_interval"], json({1.0, -1.0, -2.0}));
  EXPECT_EQ(row["frequency"]["verdict"], "fail");
  EXPECT_EQ(row["text_prior"]["verdict"], "pass");
  EXPECT_EQ(row["text_prior"]["text_only"]["equal"], true);
}

TEST(PrinciplesCli, TextOnlySaysNotApplicable) {
  const ProcessResult r = run("principles", {"--layout", "t5", "--design", "mrope"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("position coherence   n/a: no visual token"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("modality interval  n/a (no visual token)"), std::string::npos) << r.out;
  const ProcessResult j = run("principles", {"--layout", "t5", "--format", "json"});
  ASSERT_EQ(j.status, 0) << j.err;
  const json row = json::parse(j.out)["rows"][0];
  EXPECT_TRUE(row["coherence"]["smallest_interval"].is_null());
  EXPECT_TRUE(row["coherence"]["overlapping_text"].is_null());
  EXPECT_EQ(row["coherence"]["verdict"], "n/a");
}

// The Revisiting rows need no layout; their verdicts are pinned in principles_test.cpp.
TEST(PrinciplesCli, RevisitingRowsAndEveryDesign) {
  const ProcessResult r = run("principles", {"--designs", "revisiting", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json rows = json::parse(r.out)["rows"];
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows[3]["label"], "HoPE");
  EXPECT_EQ(rows[3]["text_prior"]["verdict"], "fail");
  EXPECT_EQ(rows[8]["label"], "MHRoPE");
  EXPECT_EQ(rows[8]["frequency"]["heads"], 8);
  const ProcessResult all = run("principles", {"--layout", "t3,i3x3,t3", "--designs", "all"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_NE(all.out.find("coherence  frequency  text prior"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("\nqwen3-vl "), std::string::npos) << all.out;
}

TEST(PrinciplesCli, OutIsWrittenWhole) {
  const fs::path out = principlesWork() / "principles.json";
  const ProcessResult r =
      run("principles", {"--layout", "t2,i2x2,t2", "--format", "json", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(json::parse(slurp(out))["rows"].size(), 1u);
}

TEST(PrinciplesCli, BadInputIsOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {{}, {"principles needs --layout"}},
      {{"--layout", "t4", "--format", "csv"}, {"--format", "text or json", "csv"}},
      {{"--layout", "t4", "--designs", "some"}, {"--designs", "scene, all or revisiting"}},
      {{"--layout", "t4,i0x3"}, {"layout"}},
  };
  for (const Case& c : cases)
    expectOneLineError(run("principles", c.args), joinArgs(c.args), c.mentions);
}

// decay's JSON carries the discrimination bound along its direction: the subset form along t of
// chunked M-RoPE reads pairs 0..15 (tests/core/id_budget_test.cpp: 16); the full form adds 1 for
// each of the 48 pairs that do not move, so the sum never turns negative.
TEST(DecayCli, JsonCarriesTheDiscriminationBound) {
  const ProcessResult subset =
      run("decay", {"--plan", "mrope", "--axis", "t", "--form", "subset", "--max-distance", "4"});
  ASSERT_EQ(subset.status, 0) << subset.err;
  EXPECT_EQ(json::parse(subset.out)["discrimination_bound"], 16);
  const ProcessResult full =
      run("decay", {"--plan", "mrope", "--axis", "t", "--max-distance", "4"});
  ASSERT_EQ(full.status, 0) << full.err;
  const json j = json::parse(full.out);
  EXPECT_TRUE(j["discrimination_bound"].is_null());
  EXPECT_NE(j["discrimination_undefined"].get<std::string>().find("48 of the 64 pairs do not turn"),
            std::string::npos);
  const ProcessResult csv =
      run("decay", {"--plan", "mrope", "--axis", "t", "--max-distance", "2", "--format", "csv"});
  EXPECT_EQ(csv.out.rfind("distance,bound\n", 0), 0u);
}

TEST(IdsCloudCli, TheExtensionWritesPlyOrGltf) {
  const fs::path ply = principlesWork() / "cloud.ply";
  const ProcessResult r = run("ids", {"--layout", "t2,i2x3,t1", "--out", ply.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string bytes = slurp(ply);
  EXPECT_EQ(bytes.rfind("ply\nformat binary_little_endian 1.0\n", 0), 0u);
  EXPECT_NE(bytes.find("element vertex 9\n"), std::string::npos);
  const fs::path gltf = principlesWork() / "cloud.gltf";
  const ProcessResult g = run("ids", {"--layout", "t2,i2x3,t1", "--out", gltf.string()});
  ASSERT_EQ(g.status, 0) << g.err;
  const json doc = json::parse(slurp(gltf));
  EXPECT_EQ(doc["nodes"].size(), 3u);
  // A folder named like a cloud is refused in one line, nothing written in it.
  const fs::path folder = principlesWork() / "folder.ply";
  fs::create_directories(folder);
  expectOneLineError(run("ids", {"--layout", "t2", "--out", folder.string()}), "folder",
                     {"folder.ply"});
  EXPECT_TRUE(fs::is_empty(folder));
}

}  // namespace
