// `ropescope rotary` end to end: the files it writes (names, shapes, dtypes, the summary), a
// golden case through --tokens and --q, the --out folder rule, and bad input (one line, exit 2).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_harness.h"
#include "ropescope/npy.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& rotaryWork() {
  static const fs::path d = makeWorkDir("ropescope-rotary-cli");
  return d;
}

ProcessResult rotary(const std::vector<std::string>& args) {
  std::vector<std::string> all{"rotary"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(rotaryWork(), rotaryWork(), all, true);
}

// The raw bytes after an .npy header, and its header text.
struct RawNpy {
  std::string header, body;
};
RawNpy rawNpy(const fs::path& p) {
  const std::string b = slurp(p);
  EXPECT_GE(b.size(), 10u) << p;
  const std::size_t len = std::size_t(static_cast<unsigned char>(b[8])) |
                          (std::size_t(static_cast<unsigned char>(b[9])) << 8);
  return {b.substr(10, len), b.substr(10 + len)};
}

// q [heads, n, d] in the golden cases' pattern (scripts/regen-rotary-golden.py q_value).
std::vector<float> qPattern(std::size_t heads, std::size_t n, std::size_t d) {
  std::vector<float> q(heads * n * d);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t m = 0; m < d; ++m)
        q[(h * n + i) * d + m] =
            static_cast<float>(double(long((i * 131 + m * 17 + h * 71) % 97) - 48) / 16.0 +
                               double((i * 7 + m * 3 + h) % 13) / 4096.0);
  return q;
}

TEST(RotaryCli, WritesEveryTableWithItsShapeAndDtype) {
  const fs::path out = rotaryWork() / "yarn";
  const ProcessResult r =
      rotary({"--model", "qwen2.5-vl-yarn-7b", "--layout", "t2,i2x3,t1", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const json s = json::parse(r.out);
  EXPECT_EQ(json::parse(slurp(out / "summary.json")), s);
  EXPECT_EQ(s["family"], "qwen2.5-vl");
  EXPECT_EQ(s["rules"], "hf-4.57");
  EXPECT_EQ(s["transformers_release"], "4.57.1");
  EXPECT_EQ(s["rope"]["type"], "yarn");
  EXPECT_DOUBLE_EQ(s["attention_factor"].get<double>(), 1.138629436111989);
  EXPECT_EQ(s["rope"]["parameters"]["factor"], 4);
  EXPECT_EQ(s["head_dim"], 128);
  EXPECT_EQ(s["rotary_dim"], 128);
  EXPECT_EQ(s["pair_layout"], "neox");
  EXPECT_EQ(s["cos_layout"], "per_axis");
  EXPECT_EQ(s["tokens"], 9);
  EXPECT_FALSE(s["ropescope_version"].get<std::string>().empty());
  const std::map<std::string, std::pair<std::string, std::string>> want = {
      {"position_ids.npy", {"<i8", "(3, 1, 9)"}}, {"inv_freq.npy", {"<f4", "(64,)"}},
      {"inv_freq_f64.npy", {"<f8", "(64,)"}},     {"cos.npy", {"<f4", "(3, 1, 9, 128)"}},
      {"sin.npy", {"<f4", "(3, 1, 9, 128)"}},     {"cos_f64.npy", {"<f8", "(3, 1, 9, 128)"}},
      {"sin_f64.npy", {"<f8", "(3, 1, 9, 128)"}}, {"rot_cos.npy", {"<f4", "(9, 128)"}},
      {"rot_sin.npy", {"<f4", "(9, 128)"}},       {"rot_partner.npy", {"<i8", "(128,)"}},
  };
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(out)) files.insert(e.path().filename().string());
  EXPECT_EQ(files.size(), want.size() + 1);  // + summary.json
  for (const auto& [name, kind] : want) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(files.count(name));
    const RawNpy npy = rawNpy(out / name);
    EXPECT_NE(npy.header.find("'descr': '" + kind.first + "'"), std::string::npos) << npy.header;
    EXPECT_NE(npy.header.find("'shape': " + kind.second), std::string::npos) << npy.header;
    EXPECT_TRUE(s["files"].contains(name));
  }
  // The attention factor is in cos and sin: cos^2 + sin^2 = factor^2 (float64 tables).
  const RawNpy c = rawNpy(out / "cos_f64.npy"), sn = rawNpy(out / "sin_f64.npy");
  std::vector<double> cv(c.body.size() / 8), sv(cv.size());
  std::memcpy(cv.data(), c.body.data(), c.body.size());
  std::memcpy(sv.data(), sn.body.data(), sn.body.size());
  for (std::size_t i = 0; i < cv.size(); ++i)
    EXPECT_NEAR(cv[i] * cv[i] + sv[i] * sv[i], 1.138629436111989 * 1.138629436111989, 1e-13);
}

// A golden case end to end: the processor's tokens and q in, the files equal transformers'
// (data/rotary/qwen3-vl@v4.57.1.npz) bit for bit.
TEST(RotaryCli, GoldenCaseThroughTokensAndQ) {
  const fs::path golden = fs::path(ROPESCOPE_GOLDEN_DIR) / "rotary";
  const json cases = json::parse(slurp(golden / "cases.json"))["cases"];
  const json& c = cases.at("qwen3-vl@v4.57.1");
  const fs::path tokens = rotaryWork() / "tokens.json";
  std::ofstream(tokens) << c["tokens"].dump();
  const std::size_t n = c["tokens_count"], d = c["head_dim"];
  const std::vector<float> q = qPattern(2, n, d);
  ropescope::writeNpy((rotaryWork() / "q.npy").string(), q.data(), q.size(), {2, n, d});
  const fs::path out = rotaryWork() / "golden";
  const ProcessResult r =
      rotary({"--model", "qwen3-vl-8b", "--tokens", tokens.string(), "--rules", "4.57.1", "--q",
              (rotaryWork() / "q.npy").string(), "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, ropescope::NpyNumbers> g;
  for (auto& [k, v] : ropescope::readNpzNumbers((golden / c["npz"].get<std::string>()).string()))
    g[k] = v;
  for (const char* name : {"cos", "sin", "rot_cos", "rot_sin", "inv_freq", "position_ids"}) {
    SCOPED_TRACE(name);
    const ropescope::NpyNumbers got =
        ropescope::readNpyNumbers((out / (std::string(name) + ".npy")).string());
    EXPECT_EQ(got.shape, g[name].shape);
    EXPECT_EQ(got.data, g[name].data);  // float32 values exactly, as doubles
  }
  // q_embed [2, n, d]: head 0 is the golden one (its q is head 0 of the pattern).
  const ropescope::NpyNumbers qe = ropescope::readNpyNumbers((out / "q_embed.npy").string());
  EXPECT_EQ(qe.shape, (std::vector<std::size_t>{2, n, d}));
  ASSERT_EQ(g["q_embed"].data.size(), n * d);
  EXPECT_TRUE(std::equal(g["q_embed"].data.begin(), g["q_embed"].data.end(), qe.data.begin()));
  EXPECT_EQ(json::parse(r.out)["cos_layout"], "halves");
}

// --out: a new folder is created, an empty one is used, one with files needs --force (which
// replaces the tables and leaves other files).
TEST(RotaryCli, OutFolderRule) {
  const fs::path out = rotaryWork() / "rule";
  const std::vector<std::string> base{"--model", "qwen2.5-vl-7b", "--layout", "t4"};
  auto args = [&](std::vector<std::string> more) {
    std::vector<std::string> a = base;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  ASSERT_EQ(rotary(args({"--out", out.string()})).status, 0);
  std::ofstream(out / "mine.txt") << "keep";
  expectOneLineError(rotary(args({"--out", out.string()})), "non-empty",
                     {"already holds files", "--force"});
  const ProcessResult forced = rotary(args({"--out", out.string(), "--force"}));
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(slurp(out / "mine.txt"), "keep");
  const fs::path empty = rotaryWork() / "empty";
  fs::create_directories(empty);
  EXPECT_EQ(rotary(args({"--out", empty.string()})).status, 0);
  std::ofstream(rotaryWork() / "afile") << "x";
  expectOneLineError(rotary(args({"--out", (rotaryWork() / "afile").string()})), "a file",
                     {"is a file"});
}

TEST(RotaryCli, BadInputIsOneLineAndLeavesNoFolder) {
  const fs::path out = rotaryWork() / "never";
  const std::vector<float> q(3 * 128, 1.0f);
  ropescope::writeNpy((rotaryWork() / "q3.npy").string(), q.data(), q.size(), {3, 128});
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4"}, {"rotary needs --out DIR"}},
      {{"--model", "qwen2.5-vl-7b", "--out", out.string()}, {"needs --layout"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--q", (rotaryWork() / "q3.npy").string(),
        "--out", out.string()},
       {"has shape [3, 128]", "expected [4, 128] or [heads, 4, 128]"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--q", "missing.npy", "--out", out.string()},
       {"missing.npy"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--rope", "yarn", "--rope-param", "factor=0",
        "--out", out.string()},
       {"factor"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--rope", "warp", "--out", out.string()},
       {"unknown rope type", "accepted"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--rules", "9.9", "--out", out.string()},
       {"unknown rule set \"9.9\"", "accepted"}},
      {{"--model", "qwen2.5-vl-7b", "--layout", "t4", "--threads", "2", "--out", out.string()},
       {"unknown option --threads for rotary"}},
  };
  for (const Case& c : cases) expectOneLineError(rotary(c.args), joinArgs(c.args), c.mentions);
  EXPECT_FALSE(fs::exists(out));
}

TEST(RotaryCli, HelpListsTheFilesAndOptions) {
  const ProcessResult r = rotary({"--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* s : {"--q FILE.npy", "--k FILE.npy", "--force", "--out DIR", "--rope TYPE",
                        "--tokens", "rot_partner.npy", "summary.json", "cos_f64.npy"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

}  // namespace
