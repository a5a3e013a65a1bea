// `ptd` and `bias` between other token groups (--from / --to): the JSON names the groups and
// its numbers follow the definition worked out here; bad groups exit 2 with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "cli_harness.h"

using nlohmann::json;
using namespace ropescope::cli_harness;

namespace {

ProcessResult runCli(const std::vector<std::string>& args) {
  static const fs::path dir = makeWorkDir("ropescope-groups-cli");
  return runProcess(dir, dir, args);
}

}  // namespace

TEST(GroupsCli, PtdFromTextToAudioFollowsTheDefinition) {
  // Hard ids of t2,a4: text 0, 1; audio 2..5. Text 0 sees 2, 3, 4, 5 (mean 3.5, mean absolute
  // deviation (1.5 + 0.5 + 0.5 + 1.5) / 4 = 1); text 1 sees 1..4: the same. PTD = 1.
  const ProcessResult r =
      runCli({"ptd", "--layout", "t2,a4", "--design", "hard", "--from", "text", "--to", "audio"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["from"], "text");
  EXPECT_EQ(j["to"], "audio");
  EXPECT_DOUBLE_EQ(j["ptd"].get<double>(), 1.0);
  EXPECT_EQ(j["n_text"], 2);
  EXPECT_EQ(j["n_audio"], 4);
  EXPECT_EQ(j["mean_distance"], json::array({3.5, 2.5}));
}

TEST(GroupsCli, BiasFromAudioNamesItsRowsAfterTheGroup) {
  const ProcessResult r = runCli(
      {"bias", "--layout", "t1,a3,i2x2", "--from", "audio", "--to", "visual", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("audio_index,token,mean_bias,bias_spread\n0,1,", 0), 0u) << r.out;
  // One row per audio token (3) after the header.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4);
}

TEST(GroupsCli, TheDefaultPairIsTextToVisual) {
  const ProcessResult r = runCli({"ptd", "--layout", "t2,a3,i2x2"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["from"], "text");
  EXPECT_EQ(j["to"], "visual");
  EXPECT_EQ(j["n_visual"], 4);  // the audio tokens are not visual
}

TEST(GroupsCli, BadGroupsExitTwoWithOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"ptd", "--layout", "t2,i2x2", "--from", "speech"},
       "ropescope: --from must be one of text, visual, image, video, audio (got \"speech\")\n"},
      {{"bias", "--layout", "t2,i2x2", "--from", "image", "--to", "visual"},
       "ropescope: --from image and --to visual share tokens; give two groups without common "
       "tokens (text, image, video, audio; visual = image and video)\n"},
      {{"ptd", "--layout", "t2,i2x2", "--to", "audio"},
       "ropescope: PTD needs at least one text and one audio token (layout has 2 text, 0 "
       "audio)\n"},
      {{"ptd", "--layout", "t2,a2", "--to", "audio", "--to", "text"},
       "ropescope: --to given twice\n"},
      // A sound between text and no picture: the line says how to measure the sound.
      {{"bias", "--layout", "t2,a10,t2", "--design", "qwen2.5-omni"},
       "ropescope: bias spread needs at least one text and one visual token (layout has 4 text, "
       "0 visual); to measure text to the 10 audio tokens: --to audio\n"},
      {{"ptd", "--layout", "t2,a1", "--from", "text", "--to", "visual"},
       "ropescope: PTD needs at least one text and one visual token (layout has 2 text, 0 "
       "visual); to measure text to the 1 audio token: --to audio\n"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = runCli(c.args);
    EXPECT_EQ(r.status, 2) << c.args[4];
    EXPECT_EQ(r.err, c.message);
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(GroupsCli, ProgressPrintsIncreasingPercentLinesOnStderr) {
  for (const char* command : {"ptd", "bias"}) {
    const ProcessResult r = runCli({command, "--layout", "t3000,i16x16,t3000", "--progress"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NO_THROW((void)json::parse(r.out));  // the report itself is unchanged on stdout
    const std::string prefix = std::string("ropescope: ") + command + " ";
    std::vector<int> percents;
    std::size_t at = 0;
    while ((at = r.err.find(prefix, at)) != std::string::npos) {
      at += prefix.size();
      percents.push_back(std::stoi(r.err.substr(at)));
    }
    ASSERT_GE(percents.size(), 3u) << r.err;
    EXPECT_TRUE(std::is_sorted(percents.begin(), percents.end())) << r.err;
    EXPECT_EQ(percents.back(), 100);
    // Without --progress stderr stays empty.
    EXPECT_EQ(runCli({command, "--layout", "t3000,i16x16,t3000"}).err, "");
  }
}
