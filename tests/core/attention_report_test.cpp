// The attention summary (ropescope attention): its exact layout, the keys that depend on the run,
// and values that survive a JSON parser.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "ropescope/attention_report.h"
#include "ropescope/layout.h"

using namespace ropescope;
using nlohmann::json;

namespace {

Scene scene() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t5,i3x3,t2");
  s.design = "mrope";
  s.frequency.plan = "mrope";
  s.frequency.rotary.base = 1e6;
  return s;
}

AttentionProblem problem() {
  AttentionProblem p;
  p.qk.tokens = 16;
  p.qk.qHeads = 2;
  p.qk.kvHeads = 1;
  p.qk.headDim = 128;
  p.rotary.pairs = 48;
  p.rotary.layout = PairLayout::GptJ;
  return p;
}

AttentionRun rowsRun() {
  AttentionRun r;
  r.rowBegin = 1;
  r.rowEnd = 4;
  r.backend = "cpu";
  r.backendDetail = "cpu, 2 threads";
  r.rowMaxLogit = {-0.5, 0.25, 1.0};
  r.rowMaxProbability = {0.5, 0.75, 1.0};
  r.rowEntropy = {0.0, 0.125, 3.0};
  r.seconds = 0.123456;
  return r;
}

}  // namespace

TEST(AttentionReport, OneMemberPerLineInTheCliOrder) {
  EXPECT_EQ(attentionReport(scene(), problem(), rowsRun()),
            "{\n"
            "  \"command\": \"attention\",\n"
            "  \"tokens\": 16,\n"
            "  \"heads\": 2,\n"
            "  \"kv_heads\": 1,\n"
            "  \"head_dim\": 128,\n"
            "  \"rotary_dim\": 96,\n"
            "  \"pairs\": \"gptj\",\n"
            "  \"layout\": \"t5,i3x3,t2\",\n"
            "  \"design\": \"mrope\",\n"
            "  \"plan\": \"mrope\",\n"
            "  \"base\": 1e+06,\n"
            "  \"qk\": \"identical\",\n"
            "  \"causal\": false,\n"
            "  \"value\": \"logits\",\n"
            "  \"rows\": [1, 4],\n"
            "  \"out\": null,\n"
            "  \"backend\": \"cpu\",\n"
            "  \"backend_detail\": \"cpu, 2 threads\",\n"
            "  \"row_max_logit\": {\"min\": -0.5, \"mean\": 0.25, \"max\": 1},\n"
            "  \"row_max_probability\": {\"min\": 0.5, \"mean\": 0.75, \"max\": 1},\n"
            "  \"row_entropy\": {\"min\": 0, \"mean\": 0.125, \"max\": 3},\n"
            "  \"seconds\": 0.1235\n"
            "}\n");
}

TEST(AttentionReport, RunDependentKeysAppearOnlyWhenTheyApply) {
  AttentionRun r = rowsRun();
  r.source.kind = QkSourceSpec::Kind::Random;
  r.source.seed = 18446744073709551615ull;  // 2^64 - 1 stays exact
  r.causal = true;
  r.softmax = true;
  r.pool = 4;
  r.out = "blocks.npy";
  r.outShape = {2, 4, 4};
  r.backendNote = "GPU unavailable; using the CPU";
  r.fellBack = true;
  r.fallbackReason = "context lost";
  const json j = json::parse(attentionReport(scene(), problem(), r));
  EXPECT_EQ(j["qk"], "random");
  EXPECT_EQ(j["seed"].get<unsigned long long>(), 18446744073709551615ull);
  EXPECT_EQ(j["causal"], true);
  EXPECT_EQ(j["value"], "softmax");
  EXPECT_EQ(j["pool"], 4);
  EXPECT_EQ(j["out"], "blocks.npy");
  EXPECT_EQ(j["out_shape"], json({2, 4, 4}));
  EXPECT_EQ(j["backend_note"], "GPU unavailable; using the CPU");
  EXPECT_EQ(j["backend_fallback_reason"], "context lost");
  EXPECT_FALSE(j.contains("q_file"));

  const json plain = json::parse(attentionReport(scene(), problem(), rowsRun()));
  for (const char* key :
       {"seed", "pool", "out_shape", "backend_note", "backend_fallback_reason", "q_file"})
    EXPECT_FALSE(plain.contains(key)) << key;
}

TEST(AttentionReport, FileNamesAreEscapedAndNonFiniteStatisticsAreNull) {
  AttentionRun r = rowsRun();
  r.source.kind = QkSourceSpec::Kind::Files;
  r.source.qPath = "dir/q \"1\".npy";
  r.source.kPath = std::string("k\\\t\x01\xff.npy");  // a control byte and a byte that is not UTF-8
  r.rowMaxLogit.max = std::numeric_limits<double>::infinity();
  r.rowEntropy.mean = std::nan("");
  const std::string text = attentionReport(scene(), problem(), r);
  const json j = json::parse(text);  // valid JSON, whatever the bytes of the names
  EXPECT_EQ(j["qk"], "npy");
  EXPECT_EQ(j["q_file"], "dir/q \"1\".npy");
  EXPECT_EQ(j["k_file"], "k\\\t\x01\xEF\xBF\xBD.npy");  // U+FFFD for the stray byte
  EXPECT_TRUE(j["row_max_logit"]["max"].is_null());
  EXPECT_TRUE(j["row_entropy"]["mean"].is_null());
  EXPECT_FALSE(j.contains("seed"));
}
