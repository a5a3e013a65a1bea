// The pair layout on the command line: `--pairs neox|gptj` with `--rotary-dim` reaches
// `attention` (its logits against the transformers-style float64 reference, and different from
// the other layout's), `freqs` lists the dims each pair rotates, a scene file carries the
// layout, bad values exit 2 with one line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../core/families/hf_rope_reference.h"
#include "cli_harness.h"
#include "ropescope/attention.h"
#include "ropescope/npy.h"
#include "ropescope/scene.h"

namespace {

using namespace ropescope::cli_harness;
using nlohmann::json;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-pairs-cli");
  return dir;
}

ProcessResult run(const std::vector<std::string>& args) {
  return runProcess(workDir(), workDir(), args, true);
}

// GLM-4.1V's shape scaled down: head 32, rotary 16 (the rest passes through), chunked 2,3,3.
const std::vector<std::string> kGlmLike = {
    "--layout", "t4,i3x3,t2", "--design",   "mrope", "--plan",       "mrope", "--sections", "2,3,3",
    "--base",   "1e4",        "--head-dim", "32",    "--rotary-dim", "16",    "--backend",  "cpu"};

std::vector<std::string> attention(const std::string& pairs, const std::string& out) {
  std::vector<std::string> a{"attention"};
  a.insert(a.end(), kGlmLike.begin(), kGlmLike.end());
  for (const char* x : {"--qk", "random", "--seed", "4", "--out"}) a.push_back(x);
  a.push_back(out);
  if (!pairs.empty()) {
    a.push_back("--pairs");
    a.push_back(pairs);
  }
  return a;
}

TEST(PairsCli, AttentionAppliesTheLayout) {
  const std::string gptj = (workDir() / "gptj.npy").string();
  const std::string neox = (workDir() / "neox.npy").string();
  const ProcessResult g = run(attention("gptj", gptj));
  ASSERT_EQ(g.status, 0) << g.err;
  const json j = json::parse(g.out);
  EXPECT_EQ(j["pairs"], "gptj");
  EXPECT_EQ(j["rotary_dim"], 16);
  EXPECT_EQ(j["head_dim"], 32);
  ASSERT_EQ(run(attention("", neox)).status, 0);  // the default is neox
  const ropescope::NpyArray a = ropescope::readNpy(gptj), b = ropescope::readNpy(neox);
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{1, 15, 15}));  // 4 + 9 + 2 tokens

  // The same problem in process: seed 4 random q/k, the scene the options describe.
  ropescope::Scene s = ropescope::defaultScene();
  s.layout = ropescope::parseLayoutSpec("t4,i3x3,t2");
  s.design = "mrope";
  s.designParams = {};
  s.frequency.plan = "mrope";
  s.frequency.sections = {2, 3, 3};
  s.frequency.rotary = {32, 16, 1e4, ropescope::PairLayout::GptJ};
  ropescope::QkSourceSpec src;
  src.kind = ropescope::QkSourceSpec::Kind::Random;
  src.seed = 4;
  const auto p = ropescope::makeAttentionProblem(s, src, false);
  const auto want = ropescope::testref::hfAttention(p, 0, 1e4, true, false);
  const auto other = ropescope::testref::hfAttention(p, 0, 1e4, false, false);
  double worst = 0, worstOther = 0, moved = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, std::abs(a.data[i] - want[i]));
    worstOther = std::max(worstOther, std::abs(b.data[i] - other[i]));
    moved = std::max(moved, std::abs(double(a.data[i]) - b.data[i]));
  }
  EXPECT_LT(worst, 1e-5);
  EXPECT_LT(worstOther, 1e-5);
  EXPECT_GT(moved, 0.1);
}

TEST(PairsCli, FreqsListsTheDimsOfEachPair) {
  std::vector<std::string> a{"freqs", "--format", "csv", "--pairs", "gptj"};
  a.insert(a.end(), kGlmLike.begin() + 4, kGlmLike.end() - 2);  // plan, sections, base, dims
  const ProcessResult c = run(a);
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out.substr(0, c.out.find('\n')), "index,axis,theta,wavelength,full_turn,dim_a,dim_b");
  EXPECT_NE(c.out.find("\n3,h,"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find(",6,7\n"), std::string::npos) << c.out;  // GPT-J pair 3: dims 6, 7
  std::vector<std::string> n{"freqs", "--head-dim", "32", "--rotary-dim", "16"};
  const json j = json::parse(run(n).out);
  EXPECT_EQ(j["pair_layout"], "neox");
  EXPECT_EQ(j["pairs"][3]["dims"], json::array({3, 11}));  // NeoX pair 3 of 8: dims 3, 11
}

TEST(PairsCli, SceneFileCarriesTheLayout) {
  const std::string scene = (workDir() / "glm.json").string();
  std::ofstream(scene) << R"({"format":"ropescope-scene","version":1,"layout":"t3",)"
                       << R"("frequency":{"plan":"vanilla","head_dim":8,"pairs":"gptj"}})";
  const json j = json::parse(run({"freqs", "--scene", scene}).out);
  EXPECT_EQ(j["pair_layout"], "gptj");
  EXPECT_EQ(j["pairs"][1]["dims"], json::array({2, 3}));
}

TEST(PairsCli, BadValuesExitTwoWithOneLine) {
  expectOneLineError(run({"freqs", "--pairs", "gpt-j"}), "--pairs gpt-j",
                     {"neox (dims p, p + r/2) or gptj (dims 2p, 2p + 1)", "gpt-j"});
  expectOneLineError(run({"freqs", "--rotary-dim", "130"}), "--rotary-dim 130",
                     {"rotary dim", "2..head dim 128"});
  const ProcessResult h = run({"freqs", "--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--pairs neox|gptj"), std::string::npos) << h.out;
}

}  // namespace
