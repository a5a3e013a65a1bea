// `ropescope pixels` end to end: CSV and JSON of the token -> pixel map, a tiled picture's tiles
// and thumbnail, --out written whole, and bad input (one line, exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& pixelsWork() {
  static const fs::path d = makeWorkDir("ropescope-pixels-cli");
  return d;
}

ProcessResult pixels(const std::vector<std::string>& args) {
  std::vector<std::string> all{"pixels"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(pixelsWork(), pixelsWork(), all, true);
}

// i2x3 at factor 28 is an 84 x 56 picture; the last token (1, 2) covers [56, 84) x [28, 56). The
// tile column is empty (not tiled), never 0.
TEST(PixelsCli, CsvRowsAreFactorSquares) {
  const ProcessResult r = pixels({"--layout", "t1,i2x3,t1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "token,segment,frame,row,col,tile,thumbnail,x0,y0,x1,y1,first_frame,last_frame,"
            "width,height");
  EXPECT_NE(r.out.find("\n6,1,0,1,2,,0,56,28,84,56,0,0,84,56\n"), std::string::npos) << r.out;
}

// 1920x1080: 4 x 2 tiles and a thumbnail, 2304 tokens; tile 5's first token covers
// [480, 510) x [540, 573.75); written whole to --out.
TEST(PixelsCli, TiledPictureJsonToOut) {
  const fs::path out = pixelsWork() / "map.json";
  const ProcessResult r =
      pixels({"--layout", "t2,tiled:1920x1080", "--format", "json", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const json j = json::parse(slurp(out));
  ASSERT_EQ(j["count"], 2304);
  const json& c = j["cells"][5 * 256];
  EXPECT_EQ(c["token"], 2 + 5 * 256);
  EXPECT_EQ(c["tile"], 5);
  EXPECT_EQ(c["x0"], 480.0);
  EXPECT_EQ(c["y1"], 573.75);
  EXPECT_EQ(j["cells"][2303]["thumbnail"], true);
  EXPECT_TRUE(json::parse(pixels({"--layout", "i1x1", "--format", "json"}).out)["cells"][0]["tile"]
                  .is_null());
}

TEST(PixelsCli, BadInputIsOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {{}, {"pixels needs --layout"}},
      {{"--layout", "i1x1", "--format", "npy"}, {"csv or json", "npy"}},
      {{"--layout", "i1x1", "--temporal-patch-size", "0"}, {"--temporal-patch-size", "1..64"}},
      {{"--layout", "tiled:0x5"}, {"tiled:0x5", "1..1048576"}},
      {{"--layout", "tiled:10x10/5-2"}, {"tiles range", "MIN <= MAX"}},
  };
  for (const Case& c : cases) expectOneLineError(pixels(c.args), joinArgs(c.args), c.mentions);
}

}  // namespace
