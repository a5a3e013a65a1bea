// `ropescope attention --readouts` end to end: the JSON read-outs against the rows
// `ropescope attention --causal --softmax --out` writes for the same scene (summed here), the
// text and CSV forms, n/a without a picture, and bad input (one line, exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "ropescope/npy.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& aroWork() {
  static const fs::path d = makeWorkDir("ropescope-readouts-cli");
  return d;
}

ProcessResult aroRun(std::vector<std::string> extra) {
  std::vector<std::string> all{"attention", "--layout",   "t4,i3x3,t6", "--design",
                               "mrope",     "--head-dim", "16"};
  all.insert(all.end(), extra.begin(), extra.end());
  return runProcess(aroWork(), aroWork(), all, true);
}

// t4,i3x3,t6: text 0..3, the picture 4..12 (row (t - 4) / 3, col (t - 4) % 3), text 13..18.
TEST(ReadoutsCli, NumbersAreSumsOfTheSoftmaxRows) {
  const std::vector<std::string> qk = {"--qk", "random", "--seed", "5", "--heads", "2"};
  std::vector<std::string> args = qk;
  args.insert(args.end(), {"--readouts", "--format", "json"});
  const ProcessResult r = aroRun(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const std::string rows = (aroWork() / "rows.npy").string();
  args = qk;
  args.insert(args.end(), {"--causal", "--softmax", "--backend", "cpu", "--out", rows});
  ASSERT_EQ(aroRun(args).status, 0);
  const ropescope::NpyArray p = ropescope::readNpy(rows);
  ASSERT_EQ(p.shape, (std::vector<std::size_t>{2, 19, 19}));
  const auto at = [&p](int h, int r, int k) { return double(p.data[(h * 19 + r) * 19 + k]); };

  ASSERT_EQ(j["fading"]["tokens"], json::array({13, 14, 15, 16, 17, 18}));
  for (int i = 0; i < 6; ++i) {
    double mean = 0.0;
    for (int h = 0; h < 2; ++h)
      for (int k = 4; k <= 12; ++k) mean += at(h, 13 + i, k) / 2;
    EXPECT_NEAR(j["fading"]["visual_share"][i].get<double>(), mean, 1e-6) << i;
  }
  std::vector<double> a(9, 0.0);
  double total = 0.0;
  for (int h = 0; h < 2; ++h)
    for (int r = 13; r < 19; ++r)
      for (int c = 0; c < 9; ++c) a[c] += at(h, r, 4 + c) / 12;
  for (double v : a) total += v;
  const json& pic = j["pictures"][0];
  EXPECT_NEAR(pic["mass"].get<double>(), total, 1e-6);
  EXPECT_NEAR(pic["top_left"].get<double>(), a[0] / total, 1e-6);
  EXPECT_NEAR(pic["top_row"].get<double>(), (a[0] + a[1] + a[2]) / total, 1e-6);
  EXPECT_NEAR(pic["left_column"].get<double>(), (a[0] + a[3] + a[6]) / total, 1e-6);
  EXPECT_NEAR(pic["border"].get<double>(), 1.0 - a[4] / total, 1e-6);
  const double row0 = (a[0] + a[1] + a[2]) / total, row2 = (a[6] + a[7] + a[8]) / total;
  EXPECT_NEAR(pic["centre_row"].get<double>(), (0.5 * (1.0 - row0 - row2) + row2), 1e-6);
  EXPECT_NEAR(pic["row_slope"].get<double>(), (row2 - row0) / 2, 1e-6);

  args = qk;
  args.insert(args.end(), {"--readouts", "--format", "csv"});
  const ProcessResult csv = aroRun(args);
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("text_token,token,visual_share,uniform,head_0,head_1\n1,13,", 0), 0u)
      << csv.out;
  args = qk;
  args.push_back("--readouts");
  const ProcessResult text = aroRun(args);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("picture 1 (image 3x3, tokens 4..12, 6 text queries)"), std::string::npos)
      << text.out;
}

// Every id equal (an ids file of zeros) and identical q/k: every logit is the same, so the visual
// share at token j is the 9 picture tokens over the j + 1 it sees.
TEST(ReadoutsCli, EqualIdsGiveTheCountOfVisualTokensOverTheRow) {
  const std::string zeros = (aroWork() / "zeros.npy").string();
  const std::vector<float> z(19 * 3, 0.0f);
  ropescope::writeNpy(zeros, z.data(), z.size(), {19, 3});
  const ProcessResult r = runProcess(aroWork(), aroWork(),
                                     {"attention", "--layout", "t4,i3x3,t6", "--design", "ids-file",
                                      "--ids", zeros, "--readouts", "--format", "json"},
                                     true);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(j["fading"]["visual_share"][i].get<double>(), 9.0 / (13 + i + 1), 1e-6) << i;
  EXPECT_NEAR(j["pictures"][0]["top_left"].get<double>(), 1.0 / 9, 1e-6);
  EXPECT_NEAR(j["pictures"][0]["border"].get<double>(), 8.0 / 9, 1e-6);
  EXPECT_NEAR(j["pictures"][0]["row_slope"].get<double>(), 0.0, 1e-6);
}

TEST(ReadoutsCli, NoPictureReadsNotApplicable) {
  const ProcessResult r =
      runProcess(aroWork(), aroWork(), {"attention", "--layout", "t8", "--readouts"}, true);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("n/a (the layout has no picture or video)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" 0\n"), std::string::npos) << r.out;
}

TEST(ReadoutsCli, BadCombinationsExitTwoWithOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--readouts", "--format", "npy"},
       "--format must be text, json or csv with --readouts (got \"npy\")"},
      {{"--readouts", "--rows", "0:3"}, "--readouts reads every row; give no --rows"},
      {{"--readouts", "--pool", "2"}, "--readouts reads every row; give no --pool"},
      {{"--readouts", "--out", "x.npy"}, "--readouts prints to standard output"},
      {{"--readouts", "--backend", "gpu"}, "--readouts runs on the CPU backend"},
      {{"--format", "csv"}, "attention prints its summary as JSON only"},
  };
  for (const auto& [args, mention] : cases)
    expectOneLineError(aroRun(args), joinArgs(args), {mention});
}

}  // namespace
