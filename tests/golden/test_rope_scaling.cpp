// transformers' own inv_freq and attention factor for every rope type, bit for bit: the rope
// types (core/src/rope_types) against data/rope_scaling_reference.json, made by executing
// transformers' modeling_rope_utils.py at each version (scripts/regen-rope-golden.py; provenance
// in docs/reference-data.md). The case's config is turned into a RopeScaling here, key by key,
// independently of core's config reader.
//
// Golden entries deliberately NOT compared bit for bit: f32_bits_vector_pow (torch's AVX2 SLEEF
// powf, within 1 ulp of the scalar powf, 2 ulp after the ops that follow it; checked to be
// within 2 ulp, not equal).

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "ropescope/frequency_plan.h"
#include "ropescope/model_config.h"
#include "ropescope/rope_scaling.h"

namespace golden {
namespace {

using json = nlohmann::json;
using ropescope::FrequencySpec;
using ropescope::PairTable;
using ropescope::RopeScaling;

const json& reference() {
  static const json j = [] {
    std::ifstream in(std::string(ROPESCOPE_GOLDEN_DIR) + "/rope_scaling_reference.json");
    return json::parse(in);
  }();
  return j;
}

// The case's Llama config as a frequency spec with its scaling (vanilla plan: every pair on t).
FrequencySpec specOf(const json& cfg) {
  FrequencySpec s;
  s.plan = "vanilla";
  s.rotary.headDim = cfg.at("head_dim").get<int>();
  s.rotary.base = cfg.at("rope_theta").get<double>();
  const json rope = cfg.value("rope_scaling", json::object());
  s.rope.type = rope.value("rope_type", std::string("default"));
  const double partial = cfg.value("partial_rotary_factor", 1.0);
  if (s.rope.type == "proportional") {
    s.rope.params.set("partial_rotary_factor", rope.at("partial_rotary_factor").get<double>());
  } else if (partial != 1.0) {
    s.rotary.rotaryDim = static_cast<int>(s.rotary.headDim * partial);
  }
  for (const auto& [key, value] : rope.items()) {
    if (key == "rope_type" || key == "partial_rotary_factor") continue;
    if (key == "short_factor") {
      s.rope.shortFactor = value.get<std::vector<double>>();
    } else if (key == "long_factor") {
      s.rope.longFactor = value.get<std::vector<double>>();
    } else if (value.is_boolean()) {
      s.rope.params.set(key, value.get<bool>() ? 1.0 : 0.0);
    } else {
      s.rope.params.set(key, value.get<double>());
    }
  }
  if (s.rope.type == "dynamic" || s.rope.type == "longrope")
    s.rope.params.set("max_position_embeddings", cfg.at("max_position_embeddings").get<double>());
  if (cfg.contains("original_max_position_embeddings"))  // Phi-3: at the top level
    s.rope.params.set("original_max_position_embeddings",
                      cfg.at("original_max_position_embeddings").get<double>());
  return s;
}

std::uint32_t bitsOf(const std::string& hex) {
  return static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16));
}

// float32 bit patterns equal, pair by pair; vector-pow patterns within 1 ulp.
void expectInvFreq(const PairTable& t, const json& want, const std::string& where) {
  const json& bits = want.at("f32_bits");
  ASSERT_EQ(t.invFreq32.size(), bits.size()) << where;
  for (std::size_t p = 0; p < bits.size(); ++p) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(t.invFreq32[p]), bitsOf(bits[p].get<std::string>()))
        << where << " pair " << p << ": " << t.invFreq32[p] << " vs "
        << want.at("inv_freq")[p].get<double>();
    // The float64 theta the views use is the same formula, within float32's rounding of its few
    // operations (8 ulp).
    const double f32 = want.at("inv_freq")[p].get<double>();
    EXPECT_NEAR(t.theta[p], f32, std::fabs(f32) * 1e-6) << where << " pair " << p;
  }
  if (want.contains("f32_bits_vector_pow"))
    for (std::size_t p = 0; p < bits.size(); ++p) {
      const auto a = static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(t.invFreq32[p]));
      const auto b =
          static_cast<std::int64_t>(bitsOf(want.at("f32_bits_vector_pow")[p].get<std::string>()));
      EXPECT_LE(std::llabs(a - b), 2) << where << " pair " << p << " (vector pow)";
    }
  EXPECT_EQ(t.attentionFactor, want.at("attention_factor").get<double>()) << where;
}

TEST(RopeScalingGolden, EveryTypeAndVersionBitForBit) {
  int compared = 0;
  for (const auto& [name, c] : reference().at("cases").items()) {
    const FrequencySpec spec = specOf(c.at("config"));
    ASSERT_FALSE(c.at("results").empty()) << name;
    for (const json& want : c.at("results")) {
      std::string versions;  // the versions that gave this result
      for (const json& v : want.at("versions")) versions += " " + v.get<std::string>();
      const std::string where = name + " @" + versions;
      expectInvFreq(ropescope::resolvePairs(spec), want, where);
      ++compared;
      // The rotary forward at a given largest position id (dynamic, longrope update).
      for (const json& after : want.value("after_forward", json::array())) {
        FrequencySpec at = spec;
        at.rope.maxPositionId = after.at("max_position_id").get<long long>();
        expectInvFreq(ropescope::resolvePairs(at), after,
                      where + " after max position id " + std::to_string(at.rope.maxPositionId));
        ++compared;
      }
    }
  }
  // 12 cases (each one result shared by its versions), + 5 updates.
  EXPECT_GE(compared, 17);
}

// The versions the reference covers: the six of the oracle's first harness, proportional from
// v5.5.0 (transformers has no such type before).
TEST(RopeScalingGolden, CoversTheVersions) {
  for (const auto& [name, c] : reference().at("cases").items()) {
    std::set<std::string> seen;
    for (const json& r : c.at("results"))
      for (const json& v : r.at("versions")) seen.insert(v.get<std::string>());
    const bool proportional =
        c.at("config").value("rope_scaling", json::object()).value("rope_type", "") ==
        std::string("proportional");
    for (const char* v : {"v4.57.1", "v5.3.0", "v5.4.0", "v5.5.3", "v5.5.4", "main"}) {
      if (!proportional || std::string(v) >= "v5.5" || std::string(v) == "main")
        EXPECT_TRUE(seen.count(v)) << name << " " << v;
    }
  }
}

// The shipped configs with a scaling, read by core's config reader (--model): the same float32
// inv_freq as transformers gives the golden case of the same rotary, at every version, and the
// same forward updates. Each config is its case's (resources/models/*/SOURCE says which).
TEST(RopeScalingGolden, ShippedScaledConfigsGiveTransformersInvFreq) {
  const std::vector<std::pair<std::string, std::string>> shipped = {
      {"qwen2.5-vl-yarn-7b", "qwen2.5-vl-yarn"},
      {"qwen3.5-yarn-0.8b", "qwen3.5-yarn"},
      {"llama-3.1-8b", "llama3"},
      {"phi-3-style-longrope", "longrope"},
      {"gemma-4-style-proportional", "proportional"}};
  for (const auto& [model, name] : shipped) {
    const ropescope::ModelConfig m =
        ropescope::readModelConfig(std::string(ROPESCOPE_MODELS) + "/" + model);
    const json& c = reference().at("cases").at(name);
    ASSERT_EQ(m.frequency.rope.type, specOf(c.at("config")).rope.type) << model;
    for (const json& want : c.at("results")) {
      const std::string where =
          model + " as " + name + " @" + want.at("versions")[0].get<std::string>();
      expectInvFreq(ropescope::resolvePairs(m.frequency), want, where);
      for (const json& after : want.value("after_forward", json::array())) {
        FrequencySpec at = m.frequency;
        at.rope.maxPositionId = after.at("max_position_id").get<long long>();
        expectInvFreq(ropescope::resolvePairs(at), after,
                      where + " after max position id " + std::to_string(at.rope.maxPositionId));
      }
    }
  }
}

TEST(RopeScalingGolden, CoversEveryRopeType) {
  std::set<std::string> seen;
  for (const auto& [name, c] : reference().at("cases").items())
    seen.insert(specOf(c.at("config")).rope.type);
  for (const std::string& type : ropescope::ropeTypeNames()) EXPECT_TRUE(seen.count(type)) << type;
}

}  // namespace
}  // namespace golden
