// `ropescope budget` end to end: the three formats, the trained length from --model, the rope
// and --trained-length, n/a where it is unknown, --out written whole, and bad input (one line,
// exit 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using namespace ropescope::cli_harness;
using json = nlohmann::json;

const fs::path& budgetWork() {
  static const fs::path d = makeWorkDir("ropescope-budget-cli");
  return d;
}

ProcessResult budget(const std::vector<std::string>& args) {
  std::vector<std::string> all{"budget"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(budgetWork(), budgetWork(), all, true);
}

TEST(BudgetCli, JsonHasTheHandWorkedNumbers) {
  const ProcessResult r = budget({"--layout", "t3,i4x6,t2", "--design", "mrope", "--format", "json",
                                  "--trained-length", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["tokens"], 29);
  EXPECT_EQ(j["largest_id"], 10.0);
  EXPECT_EQ(j["rope_deltas"], -18.0);
  EXPECT_EQ(j["trained_length"]["tokens"], 16);
  EXPECT_EQ(j["trained_length"]["source"], "--trained-length");
  EXPECT_DOUBLE_EQ(j["yarn"]["factor_from_ids"].get<double>(), 11.0 / 16.0);
  EXPECT_DOUBLE_EQ(j["yarn"]["factor_from_tokens"].get<double>(), 29.0 / 16.0);
  ASSERT_EQ(j["axes"].size(), 3u);
  EXPECT_EQ(j["axes"][0]["axis"], "t");
  EXPECT_EQ(j["axes"][2]["distance"], 10.0);
  EXPECT_EQ(j["curve"]["tokens"].size(), 29u);
  EXPECT_EQ(j["curve"]["max_w"][26], 8.0);
  EXPECT_EQ(j["dynamic"]["switched"], false);
}

TEST(BudgetCli, CsvIsTheCurveAndPointsDecimateIt) {
  const ProcessResult r =
      budget({"--layout", "t3,i4x6,t2", "--design", "mrope", "--format", "csv", "--points", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "tokens,max_t,max_h,max_w,largest_id\n"
            "1,0,0,0,0\n8,3,3,7,7\n15,3,4,8,8\n22,3,6,8,8\n29,10,10,10,10\n");
}

TEST(BudgetCli, TextSaysNotApplicableWithoutATrainedLength) {
  const ProcessResult r = budget({"--layout", "t3,i4x6,t2", "--design", "mrope"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("trained length    n/a (no trained length"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("YaRN factor       n/a"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rope_deltas       -18"), std::string::npos) << r.out;
  // n/a, never a 0 standing in for an unknown ratio.
  const json j =
      json::parse(budget({"--layout", "t3,i4x6,t2", "--design", "mrope", "--format", "json"}).out);
  EXPECT_TRUE(j["yarn"]["factor_from_ids"].is_null());
  EXPECT_TRUE(j["axes"][0]["ratio"].is_null());
  EXPECT_TRUE(j["axes"][0]["share_outside"].is_null());
  EXPECT_FALSE(j["axes"][0]["share_undefined"].get<std::string>().empty());
}

TEST(BudgetCli, TrainedLengthFromTheModelAndItsRope) {
  const json q3 = json::parse(
      budget({"--model", "qwen3-vl-8b", "--layout", "qwen3-vl:v40x16x16/ts6", "--format", "json"})
          .out);
  EXPECT_EQ(q3["trained_length"]["tokens"], 262144);
  EXPECT_EQ(q3["trained_length"]["source"], "config max_position_embeddings");
  EXPECT_EQ(q3["tokens"], 40 * 264);
  EXPECT_EQ(q3["largest_id"], 40 * 24 - 1);
  EXPECT_LT(q3["yarn"]["factor_from_ids"].get<double>(),
            q3["yarn"]["factor_from_tokens"].get<double>());
  const json yarn = json::parse(
      budget({"--model", "qwen2.5-vl-yarn-7b", "--layout", "t100", "--format", "json"}).out);
  EXPECT_EQ(yarn["trained_length"]["tokens"], 32768);
  EXPECT_EQ(yarn["rope"]["type"], "yarn");
  EXPECT_EQ(yarn["rope"]["factor"], 4.0);
  EXPECT_EQ(yarn["rope"]["covers"], true);
}

TEST(BudgetCli, OutIsWrittenWhole) {
  const fs::path out = budgetWork() / "budget.json";
  const ProcessResult r = budget(
      {"--layout", "t5,i3x3,t2", "--design", "hard", "--format", "json", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const json j = json::parse(slurp(out));
  EXPECT_EQ(j["largest_id"], 15.0);
  EXPECT_EQ(j["rope_deltas"], 0.0);
  EXPECT_EQ(j["ids_per_token"], 1.0);
}

TEST(BudgetCli, BadInputIsOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {{}, {"budget needs --layout"}},
      {{"--layout", "t4", "--format", "xml"}, {"--format", "text, json or csv", "xml"}},
      {{"--layout", "t4", "--points", "1"}, {"--points", "2..1048576"}},
      {{"--layout", "t4", "--trained-length", "0"}, {"--trained-length", "1.."}},
      {{"--layout", "t4", "--trained-length", "x"}, {"--trained-length"}},
      {{"--layout", "t4", "--points", "5", "--points", "6"}, {"--points given twice"}},
      {{"--layout", "t4", "--axis", "t"}, {"unknown option --axis"}},
      {{"--layout", "t4,i0x3"}, {"layout"}},
  };
  for (const Case& c : cases) expectOneLineError(budget(c.args), joinArgs(c.args), c.mentions);
}

TEST(BudgetCli, HelpListsItsOwnOptions) {
  const ProcessResult r = budget({"--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* o : {"--points", "--trained-length", "--format", "--model", "--rope"})
    EXPECT_NE(r.out.find(o), std::string::npos) << o;
}

}  // namespace
