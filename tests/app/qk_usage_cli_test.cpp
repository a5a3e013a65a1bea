// `ropescope qk-usage` end to end: text, JSON and CSV of a layer's pair norms and sinks, the sinks
// against the rows `ropescope attention --causal --softmax` writes for the same q/k, --out
// written whole, no picture read as n/a, and bad input (one line, exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "ropescope/npy.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& qkuWork() {
  static const fs::path d = makeWorkDir("ropescope-qk-usage-cli");
  return d;
}

std::string qkuPath(const std::string& name) {
  return (qkuWork() / name).string();
}

ProcessResult qkuRun(const std::string& command, const std::vector<std::string>& args) {
  std::vector<std::string> all{command};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(qkuWork(), qkuWork(), all, true);
}

// q [heads, tokens, d] and k [kvHeads, tokens, d] of fixed pseudo-random values in -1..1.
void qkuWrite(const std::string& name, std::size_t heads, std::size_t tokens, std::size_t d,
              unsigned salt) {
  std::vector<float> v(heads * tokens * d);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = float((i * 37 + salt * 101) % 29) / 14.5f - 1.0f;
  ropescope::writeNpy(qkuPath(name), v.data(), v.size(), {heads, tokens, d});
}

const std::vector<std::string> kQkuScene = {"--layout", "t3,i2x2,t3", "--design",   "mrope",
                                            "--plan",   "mrope",      "--head-dim", "8"};

std::vector<std::string> qkuArgs(std::vector<std::string> extra) {
  std::vector<std::string> a = kQkuScene;
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(QkUsageCli, SinksAreTheAttentionCommandsColumns) {
  qkuWrite("q.npy", 2, 10, 8, 1);
  qkuWrite("k.npy", 2, 10, 8, 2);
  const ProcessResult r = qkuRun(
      "qk-usage", qkuArgs({"--q", qkuPath("q.npy"), "--k", qkuPath("k.npy"), "--format", "json"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["pairs"].size(), 4u);
  ASSERT_EQ(j["sinks"]["targets"].size(), 2u);
  EXPECT_EQ(j["sinks"]["targets"][1]["token"], 3);

  const ProcessResult a =
      qkuRun("attention", qkuArgs({"--q", qkuPath("q.npy"), "--k", qkuPath("k.npy"), "--causal",
                                   "--softmax", "--backend", "cpu", "--out", qkuPath("p.npy")}));
  ASSERT_EQ(a.status, 0) << a.err;
  const ropescope::NpyArray p = ropescope::readNpy(qkuPath("p.npy"));
  ASSERT_EQ(p.shape, (std::vector<std::size_t>{2, 10, 10}));
  for (std::size_t h = 0; h < 2; ++h)
    for (std::size_t t = 0; t < 2; ++t) {
      const std::size_t col = j["sinks"]["targets"][t]["token"].get<std::size_t>();
      double sum = 0.0;
      for (std::size_t row = col; row < 10; ++row) sum += p.data[(h * 10 + row) * 10 + col];
      EXPECT_NEAR(j["heads"][h]["sink"][t].get<double>(), sum / double(10 - col), 1e-6)
          << "head " << h << " target " << t;
    }
}

TEST(QkUsageCli, TextCsvAndOut) {
  qkuWrite("q4.npy", 4, 10, 8, 3);
  qkuWrite("k2.npy", 2, 10, 8, 4);
  const std::vector<std::string> in = {"--q", qkuPath("q4.npy"), "--k", qkuPath("k2.npy")};
  const ProcessResult text = qkuRun("qk-usage", qkuArgs(in));
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("4 q heads, 2 k heads, head dim 8, 4 rotary pairs (neox)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("picture 1 (token 3)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("arXiv 2410.06205"), std::string::npos);
  EXPECT_NE(text.out.find("arXiv 2410.10781"), std::string::npos);

  std::vector<std::string> csvArgs = in;
  csvArgs.insert(csvArgs.end(), {"--format", "csv", "--out", qkuPath("u.csv")});
  const ProcessResult csv = qkuRun("qk-usage", qkuArgs(csvArgs));
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_TRUE(csv.out.empty());
  const std::string written = slurp(qkuPath("u.csv"));
  EXPECT_EQ(written.substr(0, written.find('\n')),
            "head,kv_head,pair,axis,theta,dim_a,dim_b,q_norm,k_norm,norm_product,share");
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 1 + 5 * 4);  // 4 heads + mean
  EXPECT_NE(written.find("\n3,1,0,"), std::string::npos) << written;  // q head 3 reads k head 1
}

TEST(QkUsageCli, NoPictureIsNotAvailable) {
  qkuWrite("qt.npy", 1, 6, 8, 5);
  qkuWrite("kt.npy", 1, 6, 8, 6);
  const ProcessResult r = qkuRun("qk-usage", {"--layout", "t6", "--head-dim", "8", "--q",
                                              qkuPath("qt.npy"), "--k", qkuPath("kt.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pictures: n/a (the layout has no picture or video)"), std::string::npos)
      << r.out;
}

TEST(QkUsageCli, BadInputIsOneLineAndExitTwo) {
  qkuWrite("q9.npy", 1, 9, 8, 7);
  qkuWrite("q6d.npy", 1, 10, 6, 7);
  qkuWrite("q3.npy", 3, 10, 8, 7);
  qkuWrite("k2b.npy", 2, 10, 8, 8);
  qkuWrite("k1.npy", 1, 10, 8, 8);
  qkuWrite("q7d.npy", 1, 10, 7, 7);
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {qkuArgs({"--q", qkuPath("q9.npy")}), {"--k FILE.npy"}},
      {qkuArgs({"--q", qkuPath("q9.npy"), "--k", qkuPath("k1.npy")}),
       {"has 9 tokens", "the layout has 10"}},
      {qkuArgs({"--q", qkuPath("q6d.npy"), "--k", qkuPath("k1.npy")}),
       {"head dim 6", "the plan's head dim is 8"}},
      {qkuArgs({"--q", qkuPath("q3.npy"), "--k", qkuPath("k2b.npy")}),
       {"3 heads, not a multiple of the 2 heads"}},
      {qkuArgs({"--q", qkuPath("k1.npy"), "--k", qkuPath("k1.npy"), "--format", "npy"}),
       {"text, json or csv", "npy"}},
      {{"--layout", "t3,i2x2,t3", "--head-dim", "7", "--q", qkuPath("q7d.npy"), "--k",
        qkuPath("q7d.npy")},
       {"head", "7"}},
      {qkuArgs({"--q", qkuPath("missing.npy"), "--k", qkuPath("k1.npy")}), {"missing.npy"}},
  };
  for (const Case& c : cases)
    expectOneLineError(qkuRun("qk-usage", c.args), joinArgs(c.args), c.mentions);
}

}  // namespace
