// `ropescope attention --model M --layer N` end to end: the layer's mask and rotary in the rows
// it writes (a chunk, a NoPE layer, a picture block), the summary's layer line, and the config
// settings the preview does not model, one warning line each.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "ropescope/npy.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& layerWorkDir() {
  static const fs::path dir = makeWorkDir("ropescope-layer-cli");
  return dir;
}

ProcessResult runAttention(const std::vector<std::string>& args) {
  std::vector<std::string> all{"attention"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(layerWorkDir(), layerWorkDir(), all, true);
}

// A Llama 4 text config of four layers: chunks of 4 tokens on the RoPE layers 0-2, layer 3
// NoPE with the temperature (a floor of 2 tokens, so that it grows within the test's rows).
std::string smallLlama4() {
  const fs::path dir = layerWorkDir() / "small-llama4";
  fs::create_directories(dir);
  std::ofstream(dir / "config.json") << R"({"model_type": "llama4_text", "num_hidden_layers": 4,
    "head_dim": 16, "rope_theta": 500000.0, "attention_chunk_size": 4,
    "attn_temperature_tuning": true, "floor_scale": 2, "attn_scale": 0.5, "use_qk_norm": true})";
  return dir.string();
}

std::size_t countLines(const std::string& text, const std::string& word) {
  std::size_t n = 0, at = 0;
  while ((at = text.find(word, at)) != std::string::npos) {
    ++n;
    at += word.size();
  }
  return n;
}

TEST(LayerAttentionCli, ChunkedLayerSeesOnlyItsChunk) {
  const std::string model = smallLlama4();
  const ProcessResult r = runAttention({"--model", model, "--layer", "1", "--layout", "t10", "--qk",
                                        "random", "--softmax", "--out", "chunk.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(countLines(r.err, "use_qk_norm = true"), 1u) << r.err;
  const json s = json::parse(r.out);
  EXPECT_EQ(s["layer"], 1);
  EXPECT_NE(s["layer_mask"].get<std::string>().find("chunks of 4"), std::string::npos);
  const auto a = ropescope::readNpy((layerWorkDir() / "chunk.npy").string());
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{1, 10, 10}));
  for (std::size_t i = 0; i < 10; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < 10; ++j) {
      const float p = a.data[i * 10 + j];
      const bool seen = j <= i && j / 4 == i / 4;
      if (seen)
        EXPECT_GT(p, 0.0f) << i << " " << j;
      else
        EXPECT_EQ(p, 0.0f) << i << " " << j;
      sum += p;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
}

// Identical q and k on a NoPE layer: every logit of row i is the temperature of position i
// times q . k / sqrt(16) = 1 / 4 (no rotary: no position), so the softmax is uniform over the
// row's keys and the logits read back the temperature 1 + 0.5 ln(1 + floor((i + 1) / 2)).
TEST(LayerAttentionCli, NopeLayerHasNoPositionAndTheTemperature) {
  const std::string model = smallLlama4();
  ProcessResult r = runAttention({"--model", model, "--layer", "3", "--layout", "t9", "--qk",
                                  "identical", "--out", "nope.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(json::parse(r.out)["layer_mask"].get<std::string>().find("NoPE"), std::string::npos);
  auto a = ropescope::readNpy((layerWorkDir() / "nope.npy").string());
  for (std::size_t i = 0; i < 9; ++i) {
    const double t = 1.0 + 0.5 * std::log1p(std::floor((i + 1.0) / 2.0));
    for (std::size_t j = 0; j <= i; ++j) EXPECT_NEAR(a.data[i * 9 + j], t / 4.0, 1e-6) << i;
    for (std::size_t j = i + 1; j < 9; ++j) EXPECT_TRUE(std::isinf(a.data[i * 9 + j]));
  }
  r = runAttention({"--model", model, "--layer", "3", "--layout", "t9", "--qk", "identical",
                    "--softmax", "--out", "nope_p.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  a = ropescope::readNpy((layerWorkDir() / "nope_p.npy").string());
  for (std::size_t i = 0; i < 9; ++i)
    for (std::size_t j = 0; j <= i; ++j) EXPECT_NEAR(a.data[i * 9 + j], 1.0 / (i + 1.0), 1e-6);
}

// Gemma 3 (shipped config): a picture's tokens see each other, in a sliding layer too; text
// stays causal.
TEST(LayerAttentionCli, GemmaPictureBlockIsBidirectional) {
  const ProcessResult r =
      runAttention({"--model", "gemma-3-4b-it", "--layer", "0", "--layout", "t3,i2x2,t2", "--qk",
                    "random", "--softmax", "--out", "gemma.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning: model config"), std::string::npos) << r.err;
  const json s = json::parse(r.out);
  EXPECT_NE(s["layer_mask"].get<std::string>().find("sliding window of 1024"), std::string::npos);
  EXPECT_NE(s["layer_mask"].get<std::string>().find("picture"), std::string::npos);
  const auto a = ropescope::readNpy((layerWorkDir() / "gemma.npy").string());
  const std::size_t n = a.shape[2];
  ASSERT_EQ(n, 9u);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool picture = i >= 3 && i < 7 && j >= 3 && j < 7;
      EXPECT_EQ(a.data[i * n + j] > 0.0f, j <= i || picture) << i << " " << j;
    }
}

// --layer-type picks the first layer of the type, a NoPE one included (Llama 4's
// full_attention layers): the same rows as --layer 3.
TEST(LayerAttentionCli, LayerTypePicksItsFirstLayer) {
  const std::string model = smallLlama4();
  ProcessResult r = runAttention({"--model", model, "--layer-type", "full_attention", "--layout",
                                  "t9", "--qk", "random", "--out", "type.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["layer"], 3);
  r = runAttention(
      {"--model", model, "--layer", "3", "--layout", "t9", "--qk", "random", "--out", "index.npy"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto a = ropescope::readNpy((layerWorkDir() / "type.npy").string());
  const auto b = ropescope::readNpy((layerWorkDir() / "index.npy").string());
  EXPECT_EQ(a.data, b.data);
}

TEST(LayerAttentionCli, LayerOutsideTheModelIsOneLine) {
  const std::vector<std::string> args{"--model", smallLlama4(), "--layer", "4", "--layout", "t5"};
  expectOneLineError(runAttention(args), joinArgs(args), {"--layer", "0..3"});
}

TEST(LayerAttentionCli, LayersCommandWarnsOncePerUnmodelledSetting) {
  const ProcessResult r = runProcess(layerWorkDir(), layerWorkDir(),
                                     {"layers", "--model", "llama-4-scout-17b-16e"}, true);
  ASSERT_EQ(r.status, 0) << r.err;
  // use_qk_norm, and Llama 4's picture-token mask that was not checked against transformers.
  EXPECT_EQ(countLines(r.err, "ropescope: warning:"), 2u) << r.err;
  EXPECT_EQ(countLines(r.err, "use_qk_norm = true"), 1u) << r.err;
  EXPECT_EQ(countLines(r.err, "masks a picture's tokens"), 1u) << r.err;
}

}  // namespace
