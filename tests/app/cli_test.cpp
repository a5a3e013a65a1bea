// End-to-end tests of the ropescope command line: real processes, their stdout, stderr, exit
// status and output files, for good input and for every kind of bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_harness.h"

#include "ropescope/npy.h"
#include "ropescope/position_design.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-cli");
  return dir;
}

ProcessResult runCli(const std::vector<std::string>& args) {
  return runProcess(workDir(), workDir(), args);
}

void expectBadInput(const std::vector<std::string>& args, const std::string& mention) {
  expectOneLineError(runCli(args), joinArgs(args), {mention});
}

}  // namespace

TEST(Cli, VersionAndHelp) {
  const ProcessResult v = runCli({"--version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, "ropescope " ROPESCOPE_VERSION "\n");
  for (const char* cmd : {"ids", "ptd", "bias", "decay", "freqs"}) {
    const ProcessResult h = runCli({cmd, "--help"});
    EXPECT_EQ(h.status, 0) << cmd;
    EXPECT_NE(h.out.find(std::string("usage: ropescope ") + cmd), std::string::npos);
    EXPECT_NE(h.out.find("--out FILE"), std::string::npos) << cmd;
  }
  EXPECT_NE(runCli({"ptd", "--help"}).out.find("circle:"), std::string::npos);
  EXPECT_EQ(runCli({"--help"}).status, 0);
}

TEST(Cli, PtdReproducesThePaperNumbers) {
  const ProcessResult hard = runCli({"ptd", "--layout", "i3x3,t5", "--design", "hard"});
  ASSERT_EQ(hard.status, 0) << hard.err;
  const json j = json::parse(hard.out);
  EXPECT_DOUBLE_EQ(j["ptd"].get<double>(), 20.0 / 9.0);
  EXPECT_EQ(j["n_text"], 5);
  EXPECT_EQ(j["n_visual"], 9);
  EXPECT_EQ(j["per_text"].size(), 5u);
  const json circle = json::parse(runCli({"ptd", "--layout", "i3x3,t5", "--design", "circle",
                                          "--alpha", "0.5", "--radius", "10"})
                                      .out);
  EXPECT_LT(circle["ptd"].get<double>(), 1e-12);
}

TEST(Cli, IdsReadBackBitExact) {
  const ProcessResult r = runCli({"ids", "--layout", "t1,i3x4,t1", "--design", "circle"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const auto ids =
      ropescope::findDesign("circle").ids(ropescope::parseLayoutSpec("t1,i3x4,t1"), {});
  ASSERT_EQ(j["tokens"].size(), ids.size());
  EXPECT_TRUE(j["tokens"][0]["cell"].is_null());
  EXPECT_EQ(j["tokens"][0]["modality"], "text");
  EXPECT_EQ(j["tokens"][5]["cell"], json::array({0, 1, 0}));
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (int a = 0; a < 3; ++a) EXPECT_EQ(j["tokens"][i]["id"][a].get<double>(), ids.ids[i][a]);
  EXPECT_EQ(j["rope_delta"].get<double>(), ids.ropeDelta);
  EXPECT_EQ(j["design"], "circle");
}

// --out FILE.npy (or --format npy) writes the ids as an [N, 3] float64 array, the same numbers
// as the JSON; an array format is refused for the table commands.
TEST(Cli, IdsAsNpyAndStreamedJsonAgree) {
  const fs::path npy = workDir() / "ids.npy";
  fs::remove(npy);
  const char* spec = "t2,v3x2x2,t1,i2x3";
  const ProcessResult w =
      runCli({"ids", "--layout", spec, "--design", "videorope", "--out", npy.string()});
  ASSERT_EQ(w.status, 0) << w.err;
  const ropescope::NpyNumbers a = ropescope::readNpyNumbers(npy.string());
  const auto ids = ropescope::findDesign("videorope").ids(ropescope::parseLayoutSpec(spec), {});
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{ids.size(), 3}));
  EXPECT_EQ(a.dtype, "<f8");
  const json j = json::parse(runCli({"ids", "--layout", spec, "--design", "videorope"}).out);
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(a.data[3 * i + k], ids.ids[i][k]) << i;
      EXPECT_EQ(j["tokens"][i]["id"][k].get<double>(), ids.ids[i][k]) << i;
    }
  // JSON keeps doubles as doubles (Python's json reads floats, as before): "1.0", not "1".
  EXPECT_NE(runCli({"ids", "--layout", "t2"}).out.find("\"id\": [1.0, 1.0, 1.0]"),
            std::string::npos);
  // The CSV of --format csv --out x.npy is CSV: the format given wins over the extension.
  const ProcessResult c =
      runCli({"ids", "--layout", "t1", "--format", "csv", "--out", npy.string()});
  ASSERT_EQ(c.status, 0) << c.err;
  std::ifstream in(npy);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}),
            "index,modality,segment,frame,row,col,t,h,w\n0,text,0,,,,0,0,0\n");
  expectBadInput({"ptd", "--layout", "t2,i2x2", "--format", "npy"},
                 "--format npy writes an array, the ids listing only (ptd writes json or csv)");
  expectBadInput({"decay", "--format", "npy"}, "ids listing only");
}

TEST(Cli, DecayBiasAndFreqs) {
  const json d = json::parse(
      runCli({"decay", "--plan", "vanilla", "--base", "1e4", "--max-distance", "200"}).out);
  ASSERT_EQ(d["bound"].size(), 201u);
  EXPECT_NEAR(d["bound"][10].get<double>(), 17.954137137085, 1e-11);
  EXPECT_NEAR(d["bound"][200].get<double>(), 7.244770748511, 1e-11);
  const json axis = json::parse(
      runCli({"decay", "--plan", "mrope", "--base", "1e4", "--axis", "t", "--max-distance", "50"})
          .out);
  EXPECT_NEAR(axis["bound"][50].get<double>(), 21.855130565307,
              1e-11);  // docs/math.md#decay-curves
  const json b = json::parse(runCli({"bias", "--layout", "i3x3,t5", "--design", "circle"}).out);
  EXPECT_GT(b["bias_spread"].get<double>(), 1e-3);
  EXPECT_EQ(b["per_text"].size(), 5u);
  const json f = json::parse(runCli({"freqs", "--plan", "interleaved"}).out);
  ASSERT_EQ(f["pairs"].size(), 64u);
  EXPECT_EQ(f["pairs"][1]["axis"], "h");
  EXPECT_EQ(f["pairs"][63]["axis"], "t");
  EXPECT_DOUBLE_EQ(f["pairs"][0]["wavelength"].get<double>(), 2 * 3.141592653589793);
  const json hope = json::parse(runCli({"freqs", "--plan", "hope"}).out);
  EXPECT_TRUE(hope["pairs"][63]["wavelength"].is_null());
}

// --design FAMILY brings the family's released rotary: it kept the default M-RoPE plan, so that
// `bias --design qwen3-vl` (5.6e-5) and `bias --model qwen3-vl-8b` (7.7e-3) differed 140-fold
// with nothing in the output to tell them apart. Plan options given with it override.
TEST(Cli, AFamilyDesignBringsItsReleasedRotary) {
  const auto attention = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"attention", "--layout", "t3,i2x2", "--backend", "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = runCli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(r.out);
  };
  const json glm = attention({"--design", "glm4v"});
  EXPECT_EQ(glm["rotary_dim"], 64);
  EXPECT_EQ(glm["pairs"], "gptj");
  EXPECT_EQ(glm["base"].get<double>(), 1e4);
  const json qwen3 = attention({"--design", "qwen3-vl"});
  EXPECT_EQ(qwen3["plan"], "interleaved");
  EXPECT_EQ(qwen3["base"].get<double>(), 5e6);
  const json overridden = attention({"--base", "5e5", "--design", "glm4v", "--plan", "vanilla"});
  EXPECT_EQ(overridden["base"].get<double>(), 5e5);
  EXPECT_EQ(overridden["plan"], "vanilla");
  EXPECT_EQ(overridden["rotary_dim"], 64);
  // The family's design alone measures as its shipped checkpoint does.
  const auto spread = [](std::vector<std::string> args) {
    const ProcessResult r = runCli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(r.out)["bias_spread"].get<double>();
  };
  EXPECT_EQ(spread({"bias", "--layout", "t3,i2x2", "--design", "qwen3-vl"}),
            spread({"bias", "--layout", "t3,i2x2", "--model", "qwen3-vl-8b"}));
}

TEST(Cli, CsvTables) {
  const ProcessResult r =
      runCli({"ids", "--layout", "t1,i1x2", "--design", "mrope", "--format", "csv"});
  EXPECT_EQ(r.out,
            "index,modality,segment,frame,row,col,t,h,w\n0,text,0,,,,0,0,0\n"
            "1,image,1,0,0,0,1,1,1\n2,image,1,0,0,1,1,1,2\n");
  const ProcessResult d = runCli({"decay", "--max-distance", "1", "--format", "csv"});
  EXPECT_EQ(d.out.substr(0, 21), "distance,bound\n0,32.5");
}

TEST(Cli, SceneFilesAndOutFiles) {
  const fs::path scene = workDir() / "scene.json";
  std::ofstream(scene)
      << R"({"format":"ropescope-scene","version":1,"layout":"i3x3,t5","design":"hard"})";
  const fs::path out = workDir() / "ptd.json";
  const ProcessResult r = runCli({"ptd", "--scene", scene.string(), "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_DOUBLE_EQ(json::parse(slurp(out))["ptd"].get<double>(), 20.0 / 9.0);
  // A failing run leaves an existing output file untouched and creates no new one.
  const std::string before = slurp(out);
  EXPECT_EQ(runCli({"ptd", "--layout", "i0x3", "--out", out.string()}).status, 2);
  EXPECT_EQ(slurp(out), before);
  const fs::path fresh = workDir() / "never.json";
  EXPECT_EQ(runCli({"ptd", "--layout", "t1,", "--out", fresh.string()}).status, 2);
  EXPECT_FALSE(fs::exists(fresh));
  for (const auto& e : fs::directory_iterator(workDir()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(Cli, BadLayoutsExitTwoWithOneLine) {
  for (const char* spec : {"i0x3", "t-1", "i3x", "q4", "", "t1,", "t1,,i2x2", "v1x2"})
    expectBadInput({"ptd", "--layout", spec}, "layout");
  expectBadInput({"ptd", "--layout", "t2147483648"}, "1..2147483647");
  setenv("ROPESCOPE_MEMORY_LIMIT", "1T", 1);  // the child's memory: the index ceiling speaks
  expectBadInput({"ptd", "--layout", "t2147483647,t1"}, "more than ropescope can index");
  setenv("ROPESCOPE_MEMORY_LIMIT", "1M", 1);  // 4096 tokens: the memory speaks
  expectBadInput({"ids", "--layout", "t4000,i10x10"}, "needs about");
  unsetenv("ROPESCOPE_MEMORY_LIMIT");
  expectBadInput({"ptd"}, "needs --layout");
}

TEST(Cli, BadParametersExitTwoWithTheRange) {
  const std::string L = "t2,i2x2";
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--alpha", "1.5"}, "[0, 1]");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--alpha", "nan"}, "finite");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--alpha", "inf"}, "finite");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--radius", "0"}, "(0, 1000000]");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--radius", "-2"}, "(0, 1000000]");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--radius", "auto-0"}, "K must be");
  expectBadInput({"ptd", "--layout", L, "--design", "circle", "--dff", "1.01"}, "[0, 1]");
  expectBadInput({"ptd", "--layout", L, "--design", "cone"}, "unknown design");
  expectBadInput({"ptd", "--layout", L, "--design", "hard", "--alpha", "0.5"},
                 "applies to design circle");
  expectBadInput({"ptd", "--layout", L, "--design", "hard", "--param", "alpha=0.5"},
                 "no parameter");
  expectBadInput({"bias", "--layout", L, "--head-dim", "127"}, "even");
  expectBadInput({"bias", "--layout", L, "--sections", "16,24,23"}, "sum to 63");
  expectBadInput({"decay", "--base", "nan"}, "finite");
  expectBadInput({"decay", "--axis", "x"}, "t, h or w");
  expectBadInput({"decay", "--plan", "vanilla", "--axis", "h", "--form", "subset"},
                 "undefined along h");  // no pair on h: was a curve of zeros
  expectBadInput({"decay", "--max-distance", "-5"}, "1..1000000");  // render's range too
  expectBadInput({"decay", "--direction", "1,2"}, "3 comma-separated");
  expectBadInput({"ptd", "--layout", L, "--frobnicate"}, "unknown option");
  expectBadInput({"ptd", "--layout"}, "needs a value");
  expectBadInput({"ptd", "--layout", L, "--format", "xml"}, "json, csv");
  expectBadInput({"freqs", "--plan", "multihead", "--kv-heads", "4"},
                 "default sections 2,3,3 count 8 KV heads: with kv heads 4 give sections");
  expectBadInput({"ptd", "--layout", L, "--design", ""}, "unknown design \"\" (accepted: hard");
  // A design's or plan's own option where the scene has another: refused, not ignored.
  expectBadInput({"ids", "--layout", L, "--design", "mrope", "--age-layer", "3"},
                 "--age-layer applies to design circle (the design is mrope)");
  expectBadInput({"freqs", "--kv-head", "3"}, "--kv-head applies to plan multihead");
  expectBadInput({"freqs", "--kv-heads", "4"}, "--kv-heads applies to plan multihead");
  expectBadInput({"--version", "extra"}, "--version takes nothing after it");
  expectBadInput({"frobnicate"}, "unknown command");
  expectBadInput({"fo\no\x1b[2J"}, "unknown command \"fo\\x0Ao\\x1B[2J\"");  // one line, no escape
}

TEST(Cli, BadSceneFilesExitTwo) {
  expectBadInput({"ptd", "--scene", (workDir() / "missing.json").string()}, "cannot open");
  const fs::path bad = workDir() / "bad.json";
  std::ofstream(bad) << "{\"format\": \"ropescope-scene\", ";
  expectBadInput({"ptd", "--scene", bad.string()}, "not valid JSON");
  const fs::path dir = workDir() / "a-directory.json";
  fs::create_directories(dir);
  expectBadInput({"ptd", "--scene", dir.string()}, "scene file");
}
