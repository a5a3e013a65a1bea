// The layer stack (layer_stack.h) of each shipped config against that config's own fields, read
// here with a JSON parser and the rules of transformers' config classes written out by hand
// (sliding unless (i + 1) % 6 == 0; no_rope_layers 1 = RoPE), and Llama 4's temperature against
// the formula evaluated independently (integer division, log rather than log1p).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "ropescope/attention_temperature.h"
#include "ropescope/errors.h"
#include "ropescope/layer_mask.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layer_stack_report.h"
#include "ropescope/model_config.h"

namespace {

using nlohmann::json;
using ropescope::InputError;
using ropescope::LayerAttention;
using ropescope::LayerStack;

std::string layerModelDir(const std::string& name) {
  return std::string(ROPESCOPE_MODELS) + "/" + name;
}

json layerTextConfig(const std::string& name) {
  std::ifstream in(layerModelDir(name) + "/config.json");
  const json cfg = json::parse(in);
  return cfg.contains("text_config") ? cfg.at("text_config") : cfg;
}

TEST(LayerStack, Gemma3FromItsConfig) {
  const json text = layerTextConfig("gemma-3-4b-it");
  const LayerStack stack = ropescope::readLayerStack(layerModelDir("gemma-3-4b-it"));
  const int n = text.at("num_hidden_layers").get<int>();
  const int pattern = text.at("sliding_window_pattern").get<int>();
  ASSERT_EQ(static_cast<int>(stack.layers.size()), n);
  EXPECT_EQ(stack.family, "gemma3");
  EXPECT_FALSE(stack.uniform());
  int full = 0;
  for (const auto& l : stack.layers) {
    const bool sliding = (l.index + 1) % pattern != 0;
    full += !sliding;
    EXPECT_EQ(l.type, sliding ? "sliding_attention" : "full_attention") << l.index;
    EXPECT_TRUE(l.rotary);
    EXPECT_EQ(l.frequency.rotary.headDim, text.at("head_dim").get<int>());
    if (sliding) {
      EXPECT_EQ(l.attention, LayerAttention::Sliding);
      EXPECT_EQ(l.window, text.at("sliding_window").get<long long>());
      // rope_local_base_freq is not in the file: Gemma3TextConfig's default 1e4, unscaled.
      EXPECT_EQ(l.frequency.rotary.base, 1e4);
      EXPECT_FALSE(l.frequency.rope.active());
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Full);
      EXPECT_EQ(l.window, 0);
      EXPECT_EQ(l.frequency.rotary.base, 1e6);  // rope_theta's class default
      EXPECT_EQ(l.frequency.rope.type, text.at("rope_scaling").at("rope_type").get<std::string>());
      EXPECT_EQ(*l.frequency.rope.params.find("factor"),
                text.at("rope_scaling").at("factor").get<double>());
    }
  }
  EXPECT_EQ(full, n / pattern);  // 34 layers: 5, 11, 17, 23, 29
}

TEST(LayerStack, Gemma4FromItsConfig) {
  const json text = layerTextConfig("gemma-4-defaults");
  const LayerStack stack = ropescope::readLayerStack(layerModelDir("gemma-4-defaults"));
  const int n = text.at("num_hidden_layers").get<int>();
  ASSERT_EQ(static_cast<int>(stack.layers.size()), n);
  const json& fullBlock = text.at("rope_parameters").at("full_attention");
  const json& slidingBlock = text.at("rope_parameters").at("sliding_attention");
  for (const auto& l : stack.layers) {
    const bool full = (l.index + 1) % 6 == 0 || l.index == n - 1;
    EXPECT_EQ(l.type, full ? "full_attention" : "sliding_attention") << l.index;
    if (full) {
      EXPECT_EQ(l.frequency.rotary.headDim, text.at("global_head_dim").get<int>());
      EXPECT_EQ(l.frequency.rope.type, fullBlock.at("rope_type").get<std::string>());
      EXPECT_EQ(l.frequency.rotary.base, fullBlock.at("rope_theta").get<double>());
      EXPECT_EQ(*l.frequency.rope.params.find("partial_rotary_factor"),
                fullBlock.at("partial_rotary_factor").get<double>());
    } else {
      EXPECT_EQ(l.frequency.rotary.headDim, text.at("head_dim").get<int>());
      EXPECT_EQ(l.frequency.rotary.base, slidingBlock.at("rope_theta").get<double>());
      EXPECT_FALSE(l.frequency.rope.active());
      EXPECT_EQ(l.window, text.at("sliding_window").get<long long>());
    }
  }
}

TEST(LayerStack, Llama4FromItsConfig) {
  const json text = layerTextConfig("llama-4-scout-17b-16e");
  const LayerStack stack = ropescope::readLayerStack(layerModelDir("llama-4-scout-17b-16e"));
  const json& noRope = text.at("no_rope_layers");
  ASSERT_EQ(stack.layers.size(), noRope.size());
  int nope = 0;
  for (const auto& l : stack.layers) {
    const bool rope = noRope[static_cast<std::size_t>(l.index)].get<int>() == 1;
    EXPECT_EQ(l.rotary, rope) << l.index;
    if (rope) {
      EXPECT_EQ(l.type, "chunked_attention");
      EXPECT_EQ(l.attention, LayerAttention::Chunked);
      EXPECT_EQ(l.window, text.at("attention_chunk_size").get<long long>());
      EXPECT_EQ(l.frequency.rotary.base, text.at("rope_theta").get<double>());
      EXPECT_EQ(l.frequency.rope.type, "llama3");
      EXPECT_EQ(*l.frequency.rope.params.find("factor"),
                text.at("rope_scaling").at("factor").get<double>());
      EXPECT_EQ(l.frequency.rotary.pairs, ropescope::PairLayout::GptJ);
      EXPECT_FALSE(l.temperature);
    } else {
      ++nope;
      EXPECT_EQ(l.type, "full_attention");
      EXPECT_EQ(l.window, 0);
      ASSERT_TRUE(l.temperature);
      EXPECT_EQ(l.temperature->floorScale, text.at("floor_scale").get<double>());
      EXPECT_EQ(l.temperature->attnScale, text.at("attn_scale").get<double>());
    }
  }
  EXPECT_EQ(nope, 12);
}

TEST(LayerStack, Llama4TemperatureAgainstTheFormula) {
  const ropescope::AttentionTemperature t{8192.0, 0.1};
  for (long long p : {0LL, 8190LL, 8191LL, 16383LL, 100000LL, 1000000LL, 10000000LL}) {
    const long long steps = (p + 1) / 8192;  // floor of a positive quotient
    const double want = 1.0 + 0.1 * std::log(1.0 + static_cast<double>(steps));
    EXPECT_DOUBLE_EQ(ropescope::attentionTemperature(t, p), want) << p;
    EXPECT_NEAR(ropescope::attentionTemperatureF32(t, p), want, 1e-6) << p;
  }
  EXPECT_EQ(ropescope::attentionTemperature(t, 8190), 1.0);  // the first 8191 tokens: no change
  EXPECT_DOUBLE_EQ(ropescope::attentionTemperature(t, 8191), 1.0 + 0.1 * std::log(2.0));
}

TEST(LayerStack, PickingALayer) {
  const std::string dir = layerModelDir("llama-4-scout-17b-16e");
  const LayerStack stack = ropescope::readLayerStack(dir);
  const ropescope::ModelConfig model = ropescope::readModelConfig(dir);
  const ropescope::ModelConfig two = ropescope::modelConfigOfLayer(model, stack, 2);
  EXPECT_EQ(two.layer, 2);
  EXPECT_EQ(two.layerType, "chunked_attention");
  try {
    ropescope::modelConfigOfLayer(model, stack, 3);
    FAIL() << "a NoPE layer has no rotary";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no rotary"), std::string::npos) << e.what();
    EXPECT_EQ(e.field(), "layer");
  }
  for (int bad : {-1, 48}) {
    try {
      ropescope::modelConfigOfLayer(model, stack, bad);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("0..47"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(ropescope::firstLayerOfType(stack, "full_attention"), 3);
  EXPECT_THROW(ropescope::firstLayerOfType(stack, "sliding_attention"), InputError);
}

TEST(LayerStack, Gemma3LayerTypeInTheOldForm) {
  const std::string dir = layerModelDir("gemma-3-4b-it");
  const auto full = ropescope::readModelConfig(dir);
  EXPECT_EQ(full.layerType, "full_attention");
  EXPECT_EQ(full.frequency.rotary.base, 1e6);
  const auto sliding = ropescope::readModelConfig(dir, "sliding_attention");
  EXPECT_EQ(sliding.frequency.rotary.base, 1e4);
  EXPECT_FALSE(sliding.frequency.rope.active());
  EXPECT_THROW(ropescope::readModelConfig(dir, "chunked_attention"), InputError);
}

TEST(LayerStack, ConfigsByLayerTypesAlone) {
  // A Llama config with a rope block per layer type: six layers from layer_types.
  const LayerStack s = ropescope::readLayerStack(layerModelDir("gemma-4-style-proportional"));
  ASSERT_EQ(s.layers.size(), 6u);
  EXPECT_EQ(s.layers[5].type, "full_attention");
  EXPECT_EQ(s.layers[5].frequency.rope.type, "proportional");
  EXPECT_EQ(s.layers[0].frequency.rotary.base, 1e4);
  // One rotary for every layer.
  const LayerStack plain = ropescope::layerStackFromJson(
      R"({"model_type": "llama", "num_hidden_layers": 4, "hidden_size": 512,
          "num_attention_heads": 4, "rope_theta": 10000.0})");
  EXPECT_EQ(plain.layers.size(), 4u);
  EXPECT_TRUE(plain.uniform());
}

TEST(LayerStack, BadConfigsAreRefusedInOneLine) {
  const auto refuses = [](const std::string& text, const std::string& part) {
    try {
      ropescope::layerStackFromJson(text);
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refuses(R"({"model_type": "gemma3_text", "num_hidden_layers": 3,
              "layer_types": ["full_attention"]})",
          "layer_types lists 1 layers, num_hidden_layers is 3");
  refuses(R"({"model_type": "llama4_text", "num_hidden_layers": 2, "no_rope_layers": [1, 2]})",
          "no_rope_layers[1] must be 0 or 1");
  refuses(R"({"model_type": "llama4_text", "num_hidden_layers": 4, "no_rope_layers": [1, 0]})",
          "fewer than num_hidden_layers 4");
  refuses(R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 4,
              "rope_theta": 10000.0, "layer_types": ["linear_attention"]})",
          "layer type \"linear_attention\" is not one ropescope models");
}

TEST(LayerStack, TextReportFoldsRuns) {
  const LayerStack stack = ropescope::readLayerStack(layerModelDir("gemma-3-4b-it"));
  const std::string text = ropescope::layerStackReport(stack, ropescope::LayerStackFormat::Text);
  EXPECT_NE(text.find("34 layers (29 sliding_attention, 5 full_attention)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("0–4     sliding (window 1024)  θ 1e4 default, head 256\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("5       full                   θ 1e6 linear ×8, head 256\n"),
            std::string::npos)
      << text;
  const LayerStack llama = ropescope::readLayerStack(layerModelDir("llama-4-scout-17b-16e"));
  const std::string csv = ropescope::layerStackReport(llama, ropescope::LayerStackFormat::Csv);
  EXPECT_NE(csv.find("\n3,full_attention,full,,no,,,,,,,8192,0.1\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n0,chunked_attention,chunked,8192,yes,llama3,500000,8,128,128,gptj,,\n"),
            std::string::npos)
      << csv;
  const json j = json::parse(ropescope::layerStackReport(llama, ropescope::LayerStackFormat::Json));
  EXPECT_TRUE(j.at("layers")[3].at("rotary").is_null());
  EXPECT_EQ(j.at("layers")[3].at("temperature").at("floor_scale"), 8192.0);
}

// The Layers tab's grid: one line per run, each run's layers the same by the config's own rule
// (Gemma 3: sliding unless (i + 1) % 6 == 0), and a NoPE run with n/a and its reason for θ.
TEST(LayerStack, GridOneLinePerRun) {
  const json text = layerTextConfig("gemma-3-4b-it");
  const LayerStack stack = ropescope::readLayerStack(layerModelDir("gemma-3-4b-it"));
  const int n = text.at("num_hidden_layers").get<int>();
  const int pattern = text.at("sliding_window_pattern").get<int>();
  const auto runs = ropescope::layerRuns(stack);
  // Runs by hand: sliding 0-4, full 5, sliding 6-10, ... and the sliding tail 30-33.
  std::vector<ropescope::LayerRun> want;
  for (int i = 0; i < n;) {
    const bool full = (i + 1) % pattern == 0;
    int j = i;
    while (!full && j + 1 < n && (j + 2) % pattern != 0) ++j;
    want.push_back({i, j});
    i = j + 1;
  }
  EXPECT_EQ(runs, want);
  const ropescope::ReportGrid g = ropescope::layerStackGrid(stack);
  ASSERT_EQ(g.lines.size(), runs.size());
  EXPECT_EQ(g.lines[0].name, "0–4");
  EXPECT_EQ(g.lines[1].name, "5");
  EXPECT_EQ(g.lines[0].cells[0].text, "sliding_attention");
  EXPECT_EQ(g.lines[0].cells[2].text, std::to_string(text.at("sliding_window").get<long long>()));
  EXPECT_EQ(g.lines[0].cells[3].text, "1e4");
  EXPECT_EQ(g.lines[1].cells[3].text, "1e6");
  EXPECT_EQ(g.lines[1].cells[4].text, "linear ×8");
  EXPECT_EQ(g.lines[1].cells[5].text, std::to_string(text.at("head_dim").get<int>()));
  EXPECT_EQ(g.lines[1].cells[2].text, "n/a");
  for (const auto& line : g.lines) EXPECT_EQ(line.cells.size(), g.columns.size()) << line.name;

  const LayerStack llama = ropescope::readLayerStack(layerModelDir("llama-4-scout-17b-16e"));
  const ropescope::ReportGrid lg = ropescope::layerStackGrid(llama);
  const json lt = layerTextConfig("llama-4-scout-17b-16e");
  // no_rope_layers: 1 1 1 0 repeated, so runs 0–2, 3, 4–6, 7, ...
  EXPECT_EQ(lg.lines.size(), 2 * lt.at("no_rope_layers").size() / 4);
  EXPECT_EQ(lg.lines[1].name, "3");
  EXPECT_EQ(lg.lines[1].cells[3].text, "n/a");
  EXPECT_NE(lg.lines[1].cells[3].undefined.find("NoPE"), std::string::npos);
  EXPECT_EQ(lg.lines[1].cells[7].text, "q × (1 + 0.1·ln(1 + ⌊(p+1)/8192⌋))");
  EXPECT_EQ(lg.lines[0].cells[6].text, "128");
  EXPECT_EQ(lg.lines[0].cells[7].text, "n/a");
}

}  // namespace

namespace {

// The mask by enumeration: a sliding query sees itself and the window - 1 tokens before it; a
// chunked one the tokens of its chunk up to itself; a full one every earlier token.
TEST(LayerMask, AgainstBruteForceEnumeration) {
  for (const auto attention : {ropescope::LayerAttention::Full, ropescope::LayerAttention::Sliding,
                               ropescope::LayerAttention::Chunked}) {
    ropescope::StackLayer l;
    l.attention = attention;
    l.window = attention == ropescope::LayerAttention::Full ? 0 : 5;
    const int n = 23;
    std::vector<unsigned char> want(n * n, 0);
    for (int q = 0; q < n; ++q) {
      if (attention == ropescope::LayerAttention::Sliding) {
        for (int back = 0; back < 5 && q - back >= 0; ++back) want[q * n + q - back] = 1;
      } else if (attention == ropescope::LayerAttention::Chunked) {
        int start = 0;
        while (start + 5 <= q) start += 5;
        for (int k = start; k <= q; ++k) want[q * n + k] = 1;
      } else {
        for (int k = 0; k <= q; ++k) want[q * n + k] = 1;
      }
    }
    EXPECT_EQ(ropescope::layerMask(l, n), want) << ropescope::layerAttentionName(attention);
  }
  const ropescope::LayerStack gemma = ropescope::readLayerStack(layerModelDir("gemma-3-4b-it"));
  EXPECT_TRUE(ropescope::layerSees(gemma.layers[0], 5000, 3977));   // 1023 back: inside 1024
  EXPECT_FALSE(ropescope::layerSees(gemma.layers[0], 5000, 3976));  // 1024 back: outside
  EXPECT_TRUE(ropescope::layerSees(gemma.layers[5], 5000, 0));
  EXPECT_FALSE(ropescope::layerSees(gemma.layers[5], 5000, 5001));
}

}  // namespace
