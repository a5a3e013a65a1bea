// `--ids FILE.npy` end to end: a file holding a built-in design's ids, worked out here from the
// design's rule (not by calling it), measures like that design; bad files and count mismatches
// exit 2 with one line; --design suggests the plan a research design was published with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "ropescope/npy.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-ids-cli");
  return dir;
}

ProcessResult runCli(const std::vector<std::string>& args) {
  return runProcess(workDir(), workDir(), args);
}

template <typename T>
std::string writeNpyOf(const std::string& name, const std::string& descr,
                       const std::vector<std::size_t>& shape, const std::vector<T>& v) {
  std::string h = ropescope::npyHeader(shape, descr);
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  const fs::path p = workDir() / name;
  std::ofstream f(p, std::ios::binary);
  f << "\x93NUMPY" << '\x01' << '\0' << static_cast<char>(h.size() & 0xff)
    << static_cast<char>(h.size() >> 8) << h;
  f.write(reinterpret_cast<const char*>(v.data()),
          static_cast<std::streamsize>(v.size() * sizeof(T)));
  return p.string();
}

// Qwen2-VL M-RoPE of "t3,i2x3,t2" by hand: text 0,1,2; the image at off = 3 is
// (3, 3 + r, 3 + c) for r < 2, c < 3; its max is 3 + 2 = 5, so the text after is 6, 7.
std::vector<std::int64_t> mropeByHand() {
  std::vector<std::int64_t> rows;  // [N,3]
  for (int i = 0; i < 3; ++i) rows.insert(rows.end(), {i, i, i});
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) rows.insert(rows.end(), {3, 3 + r, 3 + c});
  for (int i = 6; i < 8; ++i) rows.insert(rows.end(), {i, i, i});
  return rows;
}

}  // namespace

TEST(IdsCli, FileIdsMeasureLikeTheDesignTheyCopy) {
  const std::string f = writeNpyOf("mrope.npy", "<i8", {11, 3}, mropeByHand());
  const ProcessResult own = runCli({"ptd", "--ids", f, "--layout", "t3,i2x3,t2"});
  ASSERT_EQ(own.status, 0) << own.err;
  const ProcessResult built = runCli({"ptd", "--design", "mrope", "--layout", "t3,i2x3,t2"});
  ASSERT_EQ(built.status, 0) << built.err;
  const json a = json::parse(own.out), b = json::parse(built.out);
  EXPECT_DOUBLE_EQ(a["ptd"].get<double>(), b["ptd"].get<double>());
  EXPECT_EQ(a["per_text"], b["per_text"]);
  // The same numbers as float64 [3, N].
  const auto rows = mropeByHand();
  std::vector<double> cols(rows.size());
  for (std::size_t i = 0; i < 11; ++i)
    for (std::size_t k = 0; k < 3; ++k) cols[k * 11 + i] = static_cast<double>(rows[3 * i + k]);
  const std::string g = writeNpyOf("mrope_cols.npy", "<f8", {3, 11}, cols);
  const ProcessResult t = runCli({"ptd", "--ids", g, "--layout", "t3,i2x3,t2"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_DOUBLE_EQ(json::parse(t.out)["ptd"].get<double>(), b["ptd"].get<double>());
  // ids prints them back with the design's name and the layout's modalities.
  const ProcessResult ids = runCli({"ids", "--ids", f, "--layout", "t3,i2x3,t2"});
  ASSERT_EQ(ids.status, 0) << ids.err;
  const json j = json::parse(ids.out);
  EXPECT_EQ(j["design"], "ids-file");
  EXPECT_EQ(j["tokens"][4]["modality"], "image");
  EXPECT_EQ(j["tokens"][4]["id"], json::array({3, 3, 4}));
  // bias with a plan works on them as on any design.
  EXPECT_EQ(runCli({"bias", "--ids", f, "--layout", "t3,i2x3,t2", "--plan", "interleaved"}).status,
            0);
}

TEST(IdsCli, BadFilesExitTwoWithOneLine) {
  const std::string f = writeNpyOf("mrope.npy", "<i8", {11, 3}, mropeByHand());
  const ProcessResult count = runCli({"ptd", "--ids", f, "--layout", "t3,i2x3"});
  expectOneLineError(count, "count", {"has 11 tokens but the layout has 9"});
  const std::string nan = writeNpyOf("nan.npy", "<f8", {1, 3}, std::vector<double>{0, NAN, 0});
  expectOneLineError(runCli({"ids", "--ids", nan, "--layout", "t1"}), "nan", {"NaN h id"});
  expectOneLineError(runCli({"ids", "--ids", "missing.npy", "--layout", "t1"}), "missing",
                     {"does not exist"});
  expectOneLineError(runCli({"ids", "--ids", f, "--design", "mrope", "--layout", "t3,i2x3,t2"}),
                     "design", {"--ids makes the design ids-file"});
  expectOneLineError(runCli({"ids", "--design", "ids-file", "--layout", "t3"}), "no ids",
                     {"--ids FILE.npy"});
}

TEST(IdsCli, ResearchDesignsBringTheirPlan) {
  // IL-RoPE suggests interleaved [24,20,20]: pair 1 rotates with h. --plan overrides it.
  const ProcessResult il = runCli({"bias", "--design", "ilrope", "--layout", "t2,i2x2,t2"});
  ASSERT_EQ(il.status, 0) << il.err;
  const ProcessResult inter =
      runCli({"bias", "--design", "ilrope", "--plan", "interleaved", "--layout", "t2,i2x2,t2"});
  const ProcessResult chunked =
      runCli({"bias", "--design", "ilrope", "--plan", "mrope", "--layout", "t2,i2x2,t2"});
  EXPECT_EQ(il.out, inter.out);
  EXPECT_NE(il.out, chunked.out);
}

// VRoPE's fourth map is printed beside the stored three (CSV column h+w-t, JSON fourth_map):
// for t1,i1x2 the image cells (0,0), (0,1) have maps (1,2,1,2) and (2,1,2,1) (s = 1, H+W-1 = 2),
// and the design brings its plan, whose fourth pair rotates with that map.
TEST(IdsCli, VropePrintsItsFourthMapAndBringsItsPlan) {
  const ProcessResult csv =
      runCli({"ids", "--design", "vrope", "--layout", "t1,i1x2,t1", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "index,modality,segment,frame,row,col,t,h,w,h+w-t\n"
            "0,text,0,,,,0,0,0,0\n"
            "1,image,1,0,0,0,1,2,1,2\n"
            "2,image,1,0,0,1,2,1,2,1\n"
            "3,text,2,,,,3,3,3,3\n");
  const ProcessResult js = runCli({"ids", "--design", "vrope", "--layout", "t1,i1x2,t1"});
  ASSERT_EQ(js.status, 0) << js.err;
  const json j = json::parse(js.out);
  EXPECT_EQ(j["metric_space"], "four-maps");
  EXPECT_EQ(j["tokens"][1]["fourth_map"], 2.0);
  EXPECT_EQ(j["tokens"][2]["fourth_map"], 1.0);
  const ProcessResult mrope = runCli({"ids", "--layout", "t1,i1x2,t1"});
  EXPECT_FALSE(json::parse(mrope.out)["tokens"][1].contains("fourth_map"));
  const ProcessResult f = runCli({"bias", "--design", "vrope", "--layout", "t2,i3x3,t2"});
  const ProcessResult g =
      runCli({"bias", "--design", "vrope", "--plan", "vrope", "--layout", "t2,i3x3,t2"});
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_EQ(f.out, g.out);
}
