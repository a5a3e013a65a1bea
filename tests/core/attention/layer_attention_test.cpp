// A layer's attention preview (layer_attention.h): each mask against one built from its
// definition, the CPU backend's rows, statistics and pooled blocks against softmax of masked
// logits written out here, and the config settings the preview does not model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "attention/layer_cases.h"
#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/layer_attention.h"
#include "ropescope/layer_mask.h"
#include "ropescope/layer_stack.h"
#include "ropescope/model_config.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"

namespace ropescope {
namespace {

// The definition, written out: causal; a sliding window of w keeps q - k < w; a chunk of w keeps
// k / w == q / w; a picture block's tokens see each other whatever the rest says.
bool seesByDefinition(LayerAttention a, long long w, const std::vector<int>& picture, long long q,
                      long long k) {
  if (!picture.empty() && picture[std::size_t(q)] >= 0 &&
      picture[std::size_t(q)] == picture[std::size_t(k)])
    return true;
  if (k > q) return false;
  if (a == LayerAttention::Sliding && w > 0) return q - k < w;
  if (a == LayerAttention::Chunked && w > 0) return k / w == q / w;
  return true;
}

TEST(LayerAttentionMask, KeyRangesMatchTheDefinitionForEveryMask) {
  const std::size_t n = 37;
  // Two pictures (tokens 4..11 and 20..22) and text between them.
  std::vector<int> picture(n, -1);
  for (std::size_t i = 4; i < 12; ++i) picture[i] = 0;
  for (std::size_t i = 20; i < 23; ++i) picture[i] = 1;
  for (LayerAttention a : {LayerAttention::Full, LayerAttention::Sliding, LayerAttention::Chunked})
    for (long long w : {0LL, 1LL, 3LL, 5LL, 8LL, 64LL})
      for (bool blocks : {false, true}) {
        StackLayer l;
        l.attention = a;
        l.window = a == LayerAttention::Full ? 0 : w;
        const auto ranges = layerKeyRanges(l, blocks, picture, n);
        ASSERT_EQ(ranges.size(), n);
        for (std::size_t q = 0; q < n; ++q)
          for (std::size_t k = 0; k < n; ++k) {
            const bool want = seesByDefinition(a, l.window, blocks ? picture : std::vector<int>{},
                                               (long long)q, (long long)k);
            const bool got = k >= ranges[q].begin && k < ranges[q].end;
            ASSERT_EQ(got, want) << layerAttentionName(a) << " w=" << w << " blocks=" << blocks
                                 << " q=" << q << " k=" << k;
            ASSERT_EQ(layerSeesWithPictures(l, blocks, picture, (long long)q, (long long)k), want);
            if (!blocks) ASSERT_EQ(layerSees(l, (long long)q, (long long)k), want);
          }
      }
}

TEST(LayerAttentionMask, PictureBlocksAreRunsOfImageTokens) {
  std::vector<TokenInfo> t(8);
  for (int i : {1, 2, 5, 6, 7}) t[std::size_t(i)].modality = Modality::Image;
  t[3].modality = Modality::Video;  // not a picture of Gemma 3
  EXPECT_EQ(pictureBlocksOf(t), (std::vector<int>{-1, 0, 0, -1, -1, 1, 1, 1}));
}

// transformers' own mask functions, run on a Gemma 3 prompt with two pictures
// (scripts/regen-gemma3-mask-golden.py wrote the data and names the commits): the full and the
// sliding layer's masks are the key ranges of the picture blocks read from token_type_ids.
TEST(LayerAttentionMask, GemmaPictureBlocksMatchTransformersMask) {
  std::ifstream in(std::string(ROPESCOPE_GOLDEN) + "/gemma3_picture_mask.json");
  ASSERT_TRUE(in) << "gemma3_picture_mask.json";
  const nlohmann::json data = nlohmann::json::parse(in);
  std::vector<TokenInfo> tokens;
  for (int t : data.at("token_type_ids"))
    tokens.push_back(TokenInfo{t == 1 ? Modality::Image : Modality::Text});
  const std::size_t n = tokens.size();
  ASSERT_EQ(data.at("cases").size(), 2u);
  for (const auto& c : data.at("cases")) {
    StackLayer l;
    l.window = c.at("window").get<long long>();
    l.attention = l.window > 0 ? LayerAttention::Sliding : LayerAttention::Full;
    const auto ranges = layerKeyRanges(l, true, pictureBlocksOf(tokens), n);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t k = 0; k < n; ++k)
        EXPECT_EQ(k >= ranges[q].begin && k < ranges[q].end, c.at("mask")[q][k].get<int>() == 1)
            << c.at("layer") << " q=" << q << " k=" << k;
  }
}

// The same prompt read as a processor output (input_ids, the picture token named by the config's
// image_token_index): its runs of picture tokens are pictures, so the preview of a tokens file
// masks as transformers does.
TEST(LayerAttentionMask, GemmaTokensFilesPicturesAreThePictureBlocks) {
  std::ifstream in(std::string(ROPESCOPE_GOLDEN) + "/gemma3_picture_mask.json");
  ASSERT_TRUE(in) << "gemma3_picture_mask.json";
  const nlohmann::json data = nlohmann::json::parse(in);
  const ModelConfig gemma = modelConfigFromJson(
      R"({"model_type": "gemma3", "image_token_index": 262144,
          "text_config": {"model_type": "gemma3_text", "num_hidden_layers": 6}})",
      {}, {}, "g3");
  ASSERT_EQ(gemma.tokens.imageToken, 262144);
  TokenInput prompt;
  for (int t : data.at("token_type_ids"))
    prompt.inputIds.push_back(t == 1 ? 262144
                                     : 1000 + static_cast<long long>(prompt.inputIds.size()));
  const Layout layout = layoutFromTokens(prompt, gemma);
  const PositionIds ids = findDesign("hard").ids(layout, {});
  const std::size_t n = ids.size();
  ASSERT_EQ(n, data.at("token_type_ids").size());
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ids.tokens[i].modality == Modality::Image, data.at("token_type_ids")[i] == 1) << i;
    EXPECT_EQ(ids.ids[i][0], static_cast<double>(i)) << "one position per token";
  }
  for (const auto& c : data.at("cases")) {
    StackLayer l;
    l.window = c.at("window").get<long long>();
    l.attention = l.window > 0 ? LayerAttention::Sliding : LayerAttention::Full;
    const auto ranges = layerKeyRanges(l, true, pictureBlocksOf(ids.tokens), n);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t k = 0; k < n; ++k)
        EXPECT_EQ(k >= ranges[q].begin && k < ranges[q].end, c.at("mask")[q][k].get<int>() == 1)
            << c.at("layer") << " q=" << q << " k=" << k;
  }
  // A config that names no picture token reads every token as text.
  const ModelConfig plain = modelConfigFromJson(
      R"({"model_type": "gemma3_text", "num_hidden_layers": 6})", {}, {}, "g3t");
  const Layout text = layoutFromTokens(prompt, plain);
  ASSERT_EQ(text.segments.size(), 1u);
  EXPECT_EQ(text.segments[0].kind, SegmentKind::Text);
}

// Softmax of masked logits, written out: q and k rotated in double from the ids and the pair
// table's angles (NeoX pairs (p, p + d/2)), q times the logit scale and the temperature, -inf
// where the definition masks.
std::vector<double> directAttention(const LayerCase& c, const AttentionProblem& p, int head,
                                    bool softmax) {
  const std::size_t n = p.qk.tokens, d = std::size_t(p.qk.headDim);
  const std::size_t pairs = c.rotary ? d / 2 : 0;
  const Scene s = layerCaseScene(c);
  const PositionIds ids = effectiveIds(s);
  const PairTable table = resolvePairs(s.frequency);
  std::vector<int> picture(n, -1);
  if (c.pictureBlocks) {
    int next = -1;
    for (std::size_t i = 0; i < n; ++i)
      if (ids.tokens[i].modality == Modality::Image)
        picture[i] = (i > 0 && ids.tokens[i - 1].modality == Modality::Image) ? next : ++next;
  }
  const auto rotated = [&](const float* x, std::size_t t) {
    std::vector<double> y(x, x + d);
    for (std::size_t k = 0; k < pairs; ++k) {
      const double angle = axisCoordinate(table.axis[k], ids.ids[t]) * table.theta[k];
      y[k] = x[k] * std::cos(angle) - x[k + pairs] * std::sin(angle);
      y[k + pairs] = x[k + pairs] * std::cos(angle) + x[k] * std::sin(angle);
    }
    return y;
  };
  const double scale = c.logitScale > 0 ? c.logitScale : 1.0 / std::sqrt(double(d));
  std::vector<double> out(n * n, -std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n; ++i) {
    const auto qi = rotated(p.qk.qData() + (std::size_t(head) * n + i) * d, i);
    // Llama 4: 1 + attn_scale * ln(1 + floor((i + 1) / floor_scale)), here 4 and 0.5.
    const double temp = c.temperature ? 1.0 + 0.5 * std::log1p(std::floor((i + 1.0) / 4.0)) : 1.0;
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
      if (!seesByDefinition(c.attention, c.window, picture, (long long)i, (long long)j)) continue;
      const auto kj = rotated(p.qk.kData() + (std::size_t(head) * n + j) * d, j);
      double dot = 0;
      for (std::size_t x = 0; x < d; ++x) dot += qi[x] * kj[x];
      out[i * n + j] = dot * scale * temp;
      m = std::max(m, out[i * n + j]);
    }
    if (!softmax) continue;
    double z = 0;
    for (std::size_t j = 0; j < n; ++j)
      z += std::isinf(out[i * n + j]) ? 0 : std::exp(out[i * n + j] - m);
    for (std::size_t j = 0; j < n; ++j)
      out[i * n + j] = std::isinf(out[i * n + j]) ? 0 : std::exp(out[i * n + j] - m) / z;
  }
  return out;
}

class LayerCases : public ::testing::TestWithParam<LayerCase> {};

TEST_P(LayerCases, CpuBackendMatchesSoftmaxOfMaskedLogits) {
  const LayerCase c = GetParam();
  const AttentionProblem p = layerCaseProblem(c);
  const std::size_t n = p.qk.tokens;
  auto cpu = makeCpuAttentionBackend(2);
  cpu->load(p);
  double worst = 0, worstStats = 0, worstPool = 0, worstRef = 0;
  for (int h = 0; h < p.qk.qHeads; ++h)
    for (bool softmax : {false, true}) {
      const AttentionValue v = softmax ? AttentionValue::Softmax : AttentionValue::Logits;
      const auto want = directAttention(c, p, h, softmax);
      const auto ref = referenceAttention(p, h, v);
      std::vector<float> got(n * n), both(n * n);
      cpu->rows(h, 0, n, v, got.data());
      const RowStats st = cpu->rowsAndStats(h, 0, n, v, both.data());
      for (std::size_t i = 0; i < n * n; ++i) {
        if (std::isinf(want[i])) {
          ASSERT_EQ(got[i], -std::numeric_limits<float>::infinity()) << c.name << " " << i;
          ASSERT_EQ(both[i], got[i]);
          continue;
        }
        if (softmax && want[i] == 0.0) {  // masked probability
          ASSERT_EQ(got[i], 0.0f);
          ASSERT_EQ(both[i], 0.0f);
        }
        worst = std::max({worst, std::abs(got[i] - want[i]), std::abs(both[i] - want[i])});
        worstRef = std::max(worstRef, std::abs(ref[i] - want[i]));
      }
      // Statistics: the row's largest logit and its probabilities' entropy.
      const RowStats s2 = cpu->rowStats(h, 0, n);
      const auto logits = directAttention(c, p, h, false);
      const auto probs = directAttention(c, p, h, true);
      for (std::size_t i = 0; i < n; ++i) {
        double m = -INFINITY, e = 0;
        for (std::size_t j = 0; j < n; ++j) {
          m = std::max(m, logits[i * n + j]);
          if (probs[i * n + j] > 0) e -= probs[i * n + j] * std::log(probs[i * n + j]);
        }
        worstStats = std::max({worstStats, std::abs(s2.max[i] - m), std::abs(st.max[i] - m),
                               std::abs(s2.entropy[i] - e), std::abs(st.entropy[i] - e)});
      }
      // Pooled means over 5 x 5 tiles: probabilities over all entries, logits over unmasked.
      const std::size_t b = 5, nb = (n + b - 1) / b;
      std::vector<float> pooled(nb * nb);
      cpu->pooled(h, int(b), v, pooled.data());
      const auto& vals = softmax ? probs : logits;
      for (std::size_t I = 0; I < nb; ++I)
        for (std::size_t J = 0; J < nb; ++J) {
          double sum = 0, cnt = 0, all = 0;
          for (std::size_t i = I * b; i < std::min(n, I * b + b); ++i)
            for (std::size_t j = J * b; j < std::min(n, J * b + b); ++j) {
              ++all;
              if (std::isinf(vals[i * n + j])) continue;
              sum += vals[i * n + j];
              ++cnt;
            }
          const float g = pooled[I * nb + J];
          if (!softmax && cnt == 0) {
            ASSERT_EQ(g, -std::numeric_limits<float>::infinity());
            continue;
          }
          worstPool = std::max(worstPool, std::abs(g - sum / (softmax ? all : cnt)));
        }
    }
  std::printf("[ layer ] %s: rows %.2e, stats %.2e, pooled %.2e, reference %.2e\n", c.name, worst,
              worstStats, worstPool, worstRef);
  EXPECT_LT(worst, 2e-5);
  EXPECT_LT(worstStats, 2e-5);
  EXPECT_LT(worstPool, 2e-5);
  // The reference takes the temperature as float32 (queryScale), this test in double.
  EXPECT_LT(worstRef, c.temperature ? 1e-6 : 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Masks, LayerCases, ::testing::ValuesIn(layerCases()),
                         [](const auto& info) { return std::string(info.param.name); });

// The mask changes the numbers: a sliding row sums to 1 over its window only.
TEST(LayerAttention, SlidingRowsSpreadOverTheirWindowOnly) {
  const LayerCase& c = layerCases()[0];
  const AttentionProblem p = layerCaseProblem(c);
  auto cpu = makeCpuAttentionBackend(1);
  cpu->load(p);
  const std::size_t n = p.qk.tokens;
  std::vector<float> row(n);
  cpu->rows(0, n - 1, n, AttentionValue::Softmax, row.data());
  double inWindow = 0;
  for (std::size_t j = n - 5; j < n; ++j) inWindow += row[j];
  EXPECT_NEAR(inWindow, 1.0, 1e-6);
  for (std::size_t j = 0; j < n - 5; ++j) EXPECT_EQ(row[j], 0.0f);
}

TEST(LayerAttention, NoPeLayerHasNoPairsAndTheTemperatureOnQ) {
  const LayerCase& c = layerCases()[4];
  const AttentionProblem p = layerCaseProblem(c);
  EXPECT_EQ(p.pairs.size(), 0);
  EXPECT_EQ(p.rotary.pairs, 0);
  ASSERT_EQ(p.queryScale.size(), p.qk.tokens);
  EXPECT_EQ(p.queryScale[0], 1.0f);                                    // floor(1 / 4) = 0
  EXPECT_FLOAT_EQ(p.queryScale[3], float(1.0 + 0.5 * std::log(2.0)));  // floor(4 / 4) = 1
}

TEST(LayerAttention, LayerOutsideTheStackIsRefusedNamingTheRange) {
  const LayerCase& c = layerCases()[0];
  QkSourceSpec src;
  try {
    makeLayerAttentionProblem(layerCaseScene(c), src, layerCaseStack(c), 3);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0..0"), std::string::npos) << e.what();
  }
}

// Each setting that changes attention and is not modelled: exactly one line naming it and its
// value; the modelled query_pre_attn_scalar of Gemma 3 becomes the logit scale instead.
std::size_t linesNaming(const std::vector<std::string>& lines, const std::string& word) {
  return std::size_t(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.find(word) != std::string::npos;
  }));
}

TEST(LayerAttentionSettings, EachUnmodelledSettingWarnsOnceAndNamesIt) {
  const LayerStack llama = layerStackFromJson(
      R"({"model_type": "llama4_text", "num_hidden_layers": 4, "head_dim": 64,
          "rope_theta": 500000.0, "use_qk_norm": true})",
      "l4");
  // The setting, and that Llama 4's rule for picture tokens was not checked.
  ASSERT_EQ(llama.unmodelled.size(), 2u);
  EXPECT_EQ(linesNaming(llama.unmodelled, "use_qk_norm = true"), 1u);
  EXPECT_EQ(linesNaming(llama.unmodelled, "masks a picture's tokens"), 1u);
  EXPECT_EQ(llama.logitScale, 0.0);
  EXPECT_FALSE(llama.pictureBlocks);

  const LayerStack gemma = layerStackFromJson(
      R"({"model_type": "gemma3_text", "num_hidden_layers": 6, "head_dim": 128,
          "query_pre_attn_scalar": 168, "attn_logit_softcapping": 50.0,
          "use_bidirectional_attention": true})",
      "g3");
  ASSERT_EQ(gemma.unmodelled.size(), 2u);
  EXPECT_EQ(linesNaming(gemma.unmodelled, "attn_logit_softcapping = 50.0"), 1u);
  EXPECT_EQ(linesNaming(gemma.unmodelled, "use_bidirectional_attention = true"), 1u);
  EXPECT_EQ(linesNaming(gemma.unmodelled, "query_pre_attn_scalar"), 0u);
  EXPECT_DOUBLE_EQ(gemma.logitScale, 1.0 / std::sqrt(168.0));
  EXPECT_TRUE(gemma.pictureBlocks);

  const LayerStack gemma4 = layerStackFromJson(
      R"({"model_type": "gemma4_text", "num_hidden_layers": 6,
          "use_bidirectional_attention": "vision", "attn_logit_softcapping": null})",
      "g4");
  ASSERT_EQ(gemma4.unmodelled.size(), 2u);
  EXPECT_EQ(linesNaming(gemma4.unmodelled, "use_bidirectional_attention = \"vision\""), 1u);
  EXPECT_EQ(linesNaming(gemma4.unmodelled, "(Gemma 4): how the model masks a picture's"), 1u);
  EXPECT_FALSE(gemma4.pictureBlocks);
}

TEST(LayerAttentionSettings, ShippedConfigsSayWhatTheyDoNotModel) {
  const LayerStack scout = readLayerStack(std::string(ROPESCOPE_MODELS) + "/llama-4-scout-17b-16e");
  ASSERT_EQ(scout.unmodelled.size(), 2u);
  EXPECT_EQ(linesNaming(scout.unmodelled, "use_qk_norm"), 1u);
  EXPECT_EQ(linesNaming(scout.unmodelled, "(Llama 4): how the model masks a picture's"), 1u);
  const LayerStack gemma = readLayerStack(std::string(ROPESCOPE_MODELS) + "/gemma-3-4b-it");
  EXPECT_TRUE(gemma.unmodelled.empty());  // its picture rule is modelled (the blocks)
  // Gemma3TextConfig's class default query_pre_attn_scalar 256 equals this head size: the
  // usual 1/sqrt(256).
  EXPECT_DOUBLE_EQ(gemma.logitScale, 1.0 / 16.0);
}

}  // namespace
}  // namespace ropescope
