// Model configs: every shipped config reads to the values its checkpoint
// publishes (written here from the published config.json fields, see each folder's SOURCE, not
// from the reader's output), the flat <= 4.57 and nested 5.x forms of one model read the same,
// and hostile files give one-line InputErrors naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fstream>

#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/layout.h"
#include "ropescope/model_config.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"
#include "temp_dir.h"
#include "test_util.h"

using namespace ropescope;

namespace {

struct ModelsLocator : ::testing::Environment {
  void SetUp() override { setModelLocator(modelFolderLocator(ROPESCOPE_MODELS)); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new ModelsLocator);

struct Expected {
  const char* name;
  const char* family;
  const char* plan;
  int headDim;
  int rotaryDim;  // effective
  double base;
  std::vector<int> sections;  // in the plan's order (t, h, w)
  PairLayout pairs;
  SpecialTokenIds tokens;
  int merge, patch;
  long long minPixels, maxPixels;
  double tokensPerSecond;
};

// From the published configs (resources/models/*/SOURCE): head dim = head_dim or hidden_size /
// num_attention_heads; rotary dim = head dim * partial_rotary_factor; ERNIE's mrope_section
// [22, 22, 20] lists h, w, t, so t, h, w = [20, 22, 22].
const std::vector<Expected>& expected() {
  static const SpecialTokenIds qwen{151655, 151656, 151652, 151653, -1, -1, -1, -1};
  static const std::vector<Expected> e = {
      {"qwen2-vl-7b",
       "qwen2-vl",
       "mrope",
       3584 / 28,
       128,
       1e6,
       {16, 24, 24},
       PairLayout::NeoX,
       qwen,
       2,
       14,
       3136,
       12845056,
       0.0},
      {"qwen2.5-vl-3b",
       "qwen2.5-vl",
       "mrope",
       2048 / 16,
       128,
       1e6,
       {16, 24, 24},
       PairLayout::NeoX,
       qwen,
       2,
       14,
       3136,
       12845056,
       2.0},
      {"qwen2.5-vl-7b",
       "qwen2.5-vl",
       "mrope",
       3584 / 28,
       128,
       1e6,
       {16, 24, 24},
       PairLayout::NeoX,
       qwen,
       2,
       14,
       3136,
       12845056,
       2.0},
      {"qwen2.5-vl-yarn-7b",
       "qwen2.5-vl",
       "mrope",
       3584 / 28,
       128,
       1e6,
       {16, 24, 24},
       PairLayout::NeoX,
       qwen,
       2,
       14,
       3136,
       12845056,
       2.0},
      {"qwen3-vl-8b",
       "qwen3-vl",
       "interleaved",
       128,
       128,
       5e6,
       {24, 20, 20},
       PairLayout::NeoX,
       qwen,
       2,
       16,
       65536,
       16777216,
       0.0},
      {"qwen3.5-0.8b",
       "qwen3.5",
       "interleaved",
       256,
       64,
       1e7,
       {11, 11, 10},
       PairLayout::NeoX,
       {248056, 248057, 248053, 248054, -1, -1, -1, -1},
       2,
       16,
       65536,
       16777216,
       0.0},
      {"qwen3.5-yarn-0.8b",
       "qwen3.5",
       "interleaved",
       256,
       64,
       1e7,
       {11, 11, 10},
       PairLayout::NeoX,
       {248056, 248057, 248053, 248054, -1, -1, -1, -1},
       2,
       16,
       65536,
       16777216,
       0.0},
      // GLM: no preprocessor config shipped, so Qwen2.5-VL's pixel bounds with its patch 14.
      {"glm-4.1v-9b-thinking",
       "glm4v",
       "mrope",
       4096 / 32,
       64,
       1e4,
       {8, 12, 12},
       PairLayout::GptJ,
       {151343, 151344, -1, -1, 151339, 151340, 151341, 151342},
       2,
       14,
       112 * 112,  // Glm4vImageProcessor class defaults (no preprocessor config shipped)
       28LL * 28 * 15000,
       0.0},
      {"glm-4.5v",
       "glm4v",
       "mrope",
       128,
       64,
       1e4,
       {8, 12, 12},
       PairLayout::GptJ,
       {151363, 151364, -1, -1, 151339, 151340, 151341, 151342},
       2,
       14,
       112 * 112,
       28LL * 28 * 15000,
       0.0},
      {"ernie-4.5-vl-28b-a3b",
       "ernie4.5-vl",
       "ernie",
       2560 / 20,
       128,
       5e5,
       {20, 22, 22},
       PairLayout::GptJ,
       {100295, 103367, -1, -1, 101304, 101305, 101306, 101307},
       2,
       14,
       56 * 56,  // Ernie4_5_VLMoeImageProcessor class defaults
       28LL * 28 * 6177,
       0.0},
  };
  return e;
}

// The message of the InputError `f` throws (fails the test when it throws none).
template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

const char* kFlatQwen25 = R"({
  "model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
  "rope_theta": 1000000.0, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
  "vision_start_token_id": 151652, "vision_end_token_id": 151653, "image_token_id": 151655,
  "video_token_id": 151656,
  "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                    "tokens_per_second": 2}})";

// The same model as transformers 5.x writes it: text fields in text_config, rope_parameters.
const char* kNestedQwen25 = R"({
  "model_type": "qwen2_5_vl",
  "text_config": {"model_type": "qwen2_5_vl_text", "hidden_size": 3584, "num_attention_heads": 28,
                  "rope_parameters": {"rope_type": "default", "mrope_section": [16, 24, 24],
                                      "rope_theta": 1000000.0}},
  "vision_start_token_id": 151652, "vision_end_token_id": 151653, "image_token_id": 151655,
  "video_token_id": 151656,
  "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                    "tokens_per_second": 2}})";

}  // namespace

// The shipped text-only configs (resources/models/README.md), tested in TextOnlyModels below
// and, those whose rotary changes by layer, in layer_stack_test.cpp.
const std::vector<std::string> kTextOnly = {"gemma-4-style-proportional", "llama-3.1-8b",
                                            "phi-3-style-longrope",       "gemma-3-4b-it",
                                            "gemma-4-defaults",           "llama-4-scout-17b-16e"};

TEST(ModelConfig, EveryShippedConfigReadsToItsPublishedValues) {
  ASSERT_EQ(shippedModelNames().size(), expected().size() + kTextOnly.size());
  for (const Expected& e : expected()) {
    SCOPED_TRACE(e.name);
    const ModelConfig m = readModelConfig(e.name);
    EXPECT_EQ(m.name, e.name);
    EXPECT_EQ(m.family, e.family);
    EXPECT_EQ(m.frequency.plan, e.plan);
    EXPECT_EQ(m.frequency.rotary.headDim, e.headDim);
    EXPECT_EQ(m.frequency.rotary.effectiveRotaryDim(), e.rotaryDim);
    EXPECT_EQ(m.frequency.rotary.base, e.base);
    EXPECT_EQ(m.frequency.sections, e.sections);
    EXPECT_EQ(m.frequency.rotary.pairs, e.pairs);
    EXPECT_EQ(m.tokens, e.tokens);
    EXPECT_EQ(m.spatialMerge, e.merge);
    EXPECT_EQ(m.patchSize, e.patch);
    EXPECT_EQ(m.grid.minPixels, e.minPixels);
    EXPECT_EQ(m.grid.maxPixels, e.maxPixels);
    EXPECT_EQ(m.grid.patch, e.patch);
    EXPECT_EQ(m.grid.merge, e.merge);
    EXPECT_EQ(m.tokensPerSecond, e.tokensPerSecond);
    EXPECT_EQ(m.source, std::string("shipped: ") + e.name);
    // The pairs the plan resolves: half the rotary dim, every section used.
    EXPECT_EQ(resolvePairs(m.frequency).size(), e.rotaryDim / 2);
  }
}

TEST(ModelConfig, FlatAndNestedFormsOfOneModelReadTheSame) {
  const ModelConfig flat = modelConfigFromJson(kFlatQwen25, {}, {}, "q");
  const ModelConfig nested = modelConfigFromJson(kNestedQwen25, {}, {}, "q");
  EXPECT_EQ(flat, nested);
  EXPECT_EQ(flat.family, "qwen2.5-vl");
  EXPECT_EQ(flat.designParams.find("tokens_per_second"), 2.0);

  // GLM-4.1V flat (rope_scaling, partial_rotary_factor at the top) and nested (both in
  // text_config.rope_parameters, as GLM-4.5V's 5.x config).
  const char* glmFlat = R"({"model_type": "glm4v", "hidden_size": 4096,
    "num_attention_heads": 32, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
    "rope_scaling": {"type": "default", "mrope_section": [8, 12, 12]},
    "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}})";
  const char* glmNested = R"({"model_type": "glm4v", "text_config": {"head_dim": 128,
    "rope_parameters": {"mrope_section": [8, 12, 12], "partial_rotary_factor": 0.5,
    "rope_theta": 10000.0}},
    "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}})";
  EXPECT_EQ(modelConfigFromJson(glmFlat, {}, {}, "g"), modelConfigFromJson(glmNested, {}, {}, "g"));
}

// The context extension in every shipped form: the flat <= 4.57 rope_scaling with the
// legacy type key, 5.x rope_parameters in text_config; "mrope" and "default" are no scaling.
TEST(ModelConfig, RopeScalingIsReadInEveryForm) {
  for (const std::string& name : shippedModelNames()) {
    const ModelConfig m = readModelConfig(name);
    const bool yarn = name.find("-yarn-") != std::string::npos;
    if (std::find(kTextOnly.begin(), kTextOnly.end(), name) == kTextOnly.end())
      EXPECT_EQ(m.frequency.rope.type, yarn ? "yarn" : "") << name;
  }
  const ModelConfig q25 = readModelConfig("qwen2.5-vl-yarn-7b");
  EXPECT_EQ(q25.frequency.rope.params.find("factor"), 4.0);
  EXPECT_EQ(q25.frequency.rope.params.find("original_max_position_embeddings"), 32768.0);
  const PairTable t = resolvePairs(q25.frequency);
  EXPECT_EQ(t.attentionFactor, 0.1 * std::log(4.0) + 1.0);
  EXPECT_EQ(t.scaling[23], PairScaling::Unchanged);
  EXPECT_EQ(t.scaling[24], PairScaling::Ramped);
  EXPECT_EQ(t.scaling[40], PairScaling::Scaled);
  const ModelConfig q35 = readModelConfig("qwen3.5-yarn-0.8b");
  EXPECT_EQ(q35.frequency.rope.params.find("original_max_position_embeddings"), 262144.0);
  EXPECT_EQ(resolvePairs(q35.frequency).size(), 32);  // partial rotary 0.25 of 256

  // The same YaRN block flat (legacy type key) and nested (rope_type, in text_config) reads the
  // same; the top-level max_position_embeddings fills in a missing original length.
  std::string flat = kFlatQwen25, nested = kNestedQwen25;
  flat.replace(flat.find(R"("type": "mrope")"), 15,
               R"("type": "yarn", "factor": 4, "original_max_position_embeddings": 32768)");
  nested.replace(nested.find(R"("rope_type": "default")"), 22,
                 R"("rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 32768)");
  EXPECT_EQ(modelConfigFromJson(flat, {}, {}, "q"), modelConfigFromJson(nested, {}, {}, "q"));
  std::string implicit = kFlatQwen25;
  implicit.replace(implicit.find(R"("type": "mrope")"), 15, R"("type": "yarn", "factor": 4)");
  implicit.replace(implicit.find(R"("model_type")"), 12,
                   R"("max_position_embeddings": 32768, "model_type")");
  EXPECT_EQ(modelConfigFromJson(implicit, {}, {}, "q").frequency.rope,
            modelConfigFromJson(flat, {}, {}, "q").frequency.rope);
}

TEST(ModelConfig, RopeFieldsRopescopeDoesNotModelAreNamed) {
  const auto with = [](const std::string& block) {
    std::string c = kFlatQwen25;
    c.replace(c.find(R"("type": "mrope")"), 15, block);
    return errorOf([&] { modelConfigFromJson(c, {}, {}, "q"); });
  };
  EXPECT_EQ(with(R"("type": "yarn", "factor": 4, "original_max_position_embeddings": 32768,
                  "ramp": 2)"),
            "model config \"q\": rope_scaling.ramp is not a parameter of rope type yarn that "
            "ropescope models (accepted: factor, original_max_position_embeddings, beta_fast, "
            "beta_slow, attention_factor, mscale, mscale_all_dim, truncate)");
  EXPECT_EQ(with(R"("type": "ntk-by-parts", "factor": 4)"),
            "model config \"q\": rope_scaling.rope_type \"ntk-by-parts\" is not a rope type "
            "ropescope models (accepted: default, linear, dynamic, yarn, longrope, llama3, "
            "proportional, mrope)");
  EXPECT_EQ(with(R"("type": "yarn", "factor": 0, "original_max_position_embeddings": 32768)"),
            "model config \"q\": rope_scaling: rope yarn: factor must be in [1, 1000000] (got 0)");
  EXPECT_EQ(with(R"("type": "yarn", "factor": "4", "original_max_position_embeddings": 32768)"),
            "model config \"q\": rope_scaling.factor must be a number (got string)");
  EXPECT_EQ(with(R"("type": "default", "factor": 4)"),
            "model config \"q\": rope_scaling.factor is not a parameter of rope type default "
            "that ropescope models (accepted: none)");
  EXPECT_NE(with(R"("type": "longrope", "short_factor": [1, 2], "long_factor": [1, 2],
                  "original_max_position_embeddings": 4096, "factor": 4)")
                .find("short_factor must have one factor per pair, 64 for rotary dim 128 (got 2)"),
            std::string::npos);
  EXPECT_NE(with(R"("type": "yarn", "factor": 4, "original_max_position_embeddings": 32768,
                  "beta_fast": 1, "beta_slow": 32)")
                .find("beta_fast must be greater than beta_slow"),
            std::string::npos);
}

TEST(ModelConfig, ProcessorConfigsInBothFormsSetThePixelBounds) {
  const ModelConfig a =
      modelConfigFromJson(kFlatQwen25, R"({"min_pixels": 200704, "max_pixels": 1003520})");
  EXPECT_EQ(a.grid.minPixels, 200704);
  EXPECT_EQ(a.grid.maxPixels, 1003520);
  const ModelConfig b = modelConfigFromJson(
      kFlatQwen25, R"({"size": {"shortest_edge": 200704, "longest_edge": 1003520}})");
  EXPECT_EQ(a.grid, b.grid);
  // Only a video processor config: its bounds.
  const ModelConfig c = modelConfigFromJson(kFlatQwen25, {}, R"({"min_pixels": 4096,
    "max_pixels": 8192, "fps": 2.0})");
  EXPECT_EQ(c.grid.minPixels, 4096);
  EXPECT_EQ(c.designParams.find("fps"), 2.0);
  EXPECT_NE(errorOf([] {
              modelConfigFromJson(kFlatQwen25, R"({"min_pixels": 9000, "max_pixels": 10})");
            }).find("min_pixels"),
            std::string::npos);
  // One bound alone sets that bound; the other keeps the family's default, as the processor
  // does (a config with only max_pixels was ignored whole, and its picture got 99 tokens, not 54).
  const ImageGridSettings family = modelConfigFromJson(kFlatQwen25).grid;
  const ModelConfig d = modelConfigFromJson(kFlatQwen25, R"({"max_pixels": 50176})");
  EXPECT_EQ(d.grid.maxPixels, 50176);
  EXPECT_EQ(d.grid.minPixels, family.minPixels);
  const ModelConfig e = modelConfigFromJson(kFlatQwen25, R"({"size": {"shortest_edge": 200000}})");
  EXPECT_EQ(e.grid.minPixels, 200000);
  EXPECT_EQ(e.grid.maxPixels, family.maxPixels);
  EXPECT_NE(errorOf([] {
              modelConfigFromJson(kFlatQwen25, R"({"min_pixels": "x"})");
            }).find("min_pixels"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              modelConfigFromJson(kFlatQwen25, R"({"min_pixels": 99999999})");
            }).find("the default max_pixels (12845056)"),
            std::string::npos);
}

TEST(ModelConfig, ErnieOwnConfigFormTakesFreqAllocation) {
  // baidu/ERNIE-4.5-VL-28B-A3B-PT's remote-code config: freq_allocation 20 t pairs of 64.
  const ModelConfig m = modelConfigFromJson(R"({"model_type": "ernie4_5_moe_vl",
    "hidden_size": 2560, "num_attention_heads": 20, "rope_theta": 500000, "freq_allocation": 20,
    "im_patch_id": 100295, "vision_config": {"patch_size": 14, "spatial_merge_size": 2}})");
  EXPECT_EQ(m.frequency.sections, (std::vector<int>{20, 22, 22}));
  EXPECT_EQ(m.tokens.imageToken, 100295);
}

TEST(ModelConfig, HostileFilesGiveOneLineNamingTheField) {
  const auto err = [](const std::string& text) {
    return errorOf([&] { modelConfigFromJson(text, {}, {}, "bad.json"); });
  };
  std::string m = err(R"({"model_type": "llava"})");
  EXPECT_NE(m.find("unknown model_type \"llava\""), std::string::npos) << m;
  for (const char* family :
       {"qwen2-vl", "qwen2.5-vl", "qwen3-vl", "qwen3.5", "glm4v", "ernie4.5-vl", "qwen2_5_vl"})
    EXPECT_NE(m.find(family), std::string::npos) << m;
  EXPECT_NE(err("{}").find("no model_type"), std::string::npos);
  EXPECT_NE(err(R"({"model_type": 7})").find("model_type must be a string"), std::string::npos);
  EXPECT_NE(err("[1, 2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(err("{\"model_type\": ").find("not valid JSON"), std::string::npos);

  const auto without = [](const std::string& key) {
    std::string s = kFlatQwen25;
    const auto at = s.find("\"" + key + "\"");
    EXPECT_NE(at, std::string::npos) << key;
    s.replace(at + 1, key.size(), "x_" + key);  // the key renamed away
    return s;
  };
  EXPECT_NE(err(without("rope_theta")).find("missing field rope_theta"), std::string::npos);
  EXPECT_NE(err(without("mrope_section")).find("missing field mrope_section"), std::string::npos);
  EXPECT_NE(err(without("spatial_merge_size")).find("vision_config.spatial_merge_size"),
            std::string::npos);
  EXPECT_NE(err(without("tokens_per_second")).find("tokens_per_second"), std::string::npos);
  m = err(without("hidden_size"));
  EXPECT_NE(m.find("missing field hidden_size"), std::string::npos) << m;

  const auto with = [](const std::string& from, const std::string& to) {
    std::string s = kFlatQwen25;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  m = err(with("\"rope_theta\": 1000000.0", "\"rope_theta\": \"big\""));
  EXPECT_NE(m.find("rope_theta must be a number (got string)"), std::string::npos) << m;
  m = err(with("\"hidden_size\": 3584", "\"hidden_size\": 1e300"));
  EXPECT_NE(m.find("hidden_size must be"), std::string::npos) << m;
  m = err(with("\"num_attention_heads\": 28", "\"num_attention_heads\": 184467440737095516150"));
  EXPECT_NE(m.find("num_attention_heads"), std::string::npos) << m;
  m = err(with("[16, 24, 24]", "[16, 24]"));
  EXPECT_NE(m.find("mrope_section must be a list of 3"), std::string::npos) << m;
  m = err(with("[16, 24, 24]", "[16, 24, 25]"));  // 65 pairs over 64
  EXPECT_NE(m.find("do not fit"), std::string::npos) << m;
  m = err(with("[16, 24, 24]", "[16, -24, 24]"));
  EXPECT_NE(m.find("mrope_section[1]"), std::string::npos) << m;
  m = err(with("\"rope_theta\": 1000000.0",
               "\"rope_theta\": 1000000.0, \"partial_rotary_factor\": 0.3"));
  EXPECT_NE(m.find("partial_rotary_factor"), std::string::npos) << m;
  m = err(with("\"image_token_id\": 151655", "\"image_token_id\": -5"));
  EXPECT_NE(m.find("image_token_id"), std::string::npos) << m;
  m = err(with("\"vision_config\": {", "\"vision_config\": [], \"x\": {"));
  EXPECT_NE(m.find("missing field vision_config"), std::string::npos) << m;
  EXPECT_NE(err(std::string(kMaxModelConfigBytes + 1, ' ')).find("larger than"), std::string::npos);
}

TEST(ModelConfig, FoldersAndNames) {
  test::TempDir dir;
  std::ofstream(dir.path / "config.json") << kFlatQwen25;
  std::ofstream(dir.path / "preprocessor_config.json")
      << R"({"min_pixels": 784, "max_pixels": 1568})";
  const ModelConfig m = readModelConfig(dir.path.string());
  EXPECT_EQ(m.grid.minPixels, 784);
  EXPECT_EQ(m.name, dir.path.filename().string());
  EXPECT_EQ(readModelConfig((dir.path / "config.json").string()), m);  // the file itself

  test::TempDir empty;
  std::string e = errorOf([&] { readModelConfig(empty.path.string()); });
  EXPECT_NE(e.find("has no config.json"), std::string::npos) << e;
  e = errorOf([] { readModelConfig("qwen9-vl"); });
  EXPECT_NE(e.find("no shipped model of that name (shipped: ernie-4.5-vl-28b-a3b"),
            std::string::npos)
      << e;
  std::ofstream(empty.path / "config.json") << std::string(kMaxModelConfigBytes + 10, ' ');
  e = errorOf([&] { readModelConfig(empty.path.string()); });
  EXPECT_NE(e.find("larger than"), std::string::npos) << e;
}

TEST(ModelConfig, ApplyModelSetsDesignFrequencyAndGrid) {
  const ModelConfig m = readModelConfig("qwen2.5-vl-7b");
  Scene s = defaultScene();
  s.frequency.rotary.headDim = 64;
  const Scene out = applyModel(s, m);
  EXPECT_EQ(out.design, "qwen2.5-vl");
  EXPECT_EQ(out.frequency, m.frequency);
  EXPECT_EQ(out.imageGrid, m.grid);
  EXPECT_EQ(out.designParams.find("tokens_per_second"), 2.0);
  EXPECT_NO_THROW(validateScene(out));
}

// A user's-eye report: Load ids, then Open model, then Save wrote the ids file's name into a
// scene whose design is the model's, and that scene failed to open once the file was gone. The
// model's scene holds no loaded ids.
TEST(ModelConfig, ApplyModelDropsIdsLoadedForTheLayoutBefore) {
  Scene s = defaultScene();
  s.idsFile = "/nowhere/ids.npy";
  s.fileIds = std::vector<Id3>(s.layout.tokenCount(), Id3{0.0, 0.0, 0.0});
  const Scene out = applyModel(s, readModelConfig("qwen2.5-vl-7b"));
  EXPECT_TRUE(out.idsFile.empty());
  EXPECT_TRUE(out.fileIds.empty());
  const std::string text = sceneToJson(out);
  EXPECT_EQ(text.find("ids_file"), std::string::npos) << text;
  EXPECT_NO_THROW(sceneFromJson(text));
}

TEST(ModelConfig, TheSceneKeepsTheModelName) {
  const Scene out = applyModel(defaultScene(), readModelConfig("qwen2.5-vl-7b"));
  EXPECT_EQ(out.model, "qwen2.5-vl-7b");
  const std::string text = sceneToJson(out);
  EXPECT_NE(text.find("\"model\": \"qwen2.5-vl-7b\""), std::string::npos) << text;
  EXPECT_EQ(sceneFromJson(text).model, "qwen2.5-vl-7b");
  EXPECT_EQ(sceneToJson(defaultScene()).find("\"model\""), std::string::npos);  // optional
  std::string bad = text;
  bad.replace(bad.find("qwen2.5-vl-7b\""), 13, "qwen\\n2.5");
  const std::string e = errorOf([&] { sceneFromJson(bad); });
  EXPECT_NE(e.find("model name"), std::string::npos) << e;
  std::string wrongType = text;
  wrongType.replace(wrongType.find("\"qwen2.5-vl-7b\""), 15, "7");
  EXPECT_THROW(sceneFromJson(wrongType), InputError);
}

// A model brings its processor's smart_resize variant with it (GLM scales short sides up and
// counts an image as two frames; ERNIE refuses no side), and a scene keeps it through its file.
TEST(ModelConfig, TheFamilyChoosesTheResizeRuleAndTheSceneKeepsIt) {
  EXPECT_EQ(readModelConfig("glm-4.5v").grid.rule, ResizeRule::Glm);
  EXPECT_EQ(readModelConfig("ernie-4.5-vl-28b-a3b").grid.rule, ResizeRule::Ernie);
  EXPECT_EQ(readModelConfig("qwen2.5-vl-7b").grid.rule, ResizeRule::Qwen);
  const Scene s = applyModel(defaultScene(), readModelConfig("glm-4.1v-9b-thinking"));
  EXPECT_EQ(s.imageGrid.rule, ResizeRule::Glm);
  const std::string text = sceneToJson(s);
  EXPECT_NE(text.find("\"resize_rule\": \"glm4v\""), std::string::npos) << text;
  EXPECT_EQ(sceneFromJson(text).imageGrid, s.imageGrid);
  EXPECT_EQ(sceneToJson(defaultScene()).find("resize_rule"), std::string::npos);
}

// max_position_embeddings, the id budget's trained length where the rope block names no
// original length: from text_config or the top level, 0 where the config does not say.
TEST(ModelConfig, MaxPositionEmbeddingsIsReadWhereTheConfigHasIt) {
  EXPECT_EQ(readModelConfig("qwen3-vl-8b").maxPositionEmbeddings, 262144);         // text_config
  EXPECT_EQ(readModelConfig("qwen2.5-vl-yarn-7b").maxPositionEmbeddings, 128000);  // top level
  EXPECT_EQ(readModelConfig("qwen3.5-yarn-0.8b").maxPositionEmbeddings, 1010000);
  EXPECT_EQ(readModelConfig("qwen2.5-vl-7b").maxPositionEmbeddings, 0);
  EXPECT_NE(test::messageOf([] {
              modelConfigFromJson(R"({"model_type": "llama", "rope_theta": 10000,
                                      "head_dim": 64, "max_position_embeddings": 0})");
            }).find("max_position_embeddings"),
            std::string::npos);
}

// A user's-eye report: File -> Open model kept the pictures on the old model's grid (castle.png
// 9 x 11 under Qwen3-VL, which cuts it 8 x 10, as the CLI did): the app's PTD was not the
// CLI's. The model's grid cuts the scene's pictures again, both ways.
TEST(ModelConfig, APictureIsCutAgainByTheModelsGrid) {
  const std::string samples = ROPESCOPE_SAMPLES;
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,img:castle.png,t8", {samples, s.imageGrid});
  const Segment& before = s.layout.segments[1];
  // The expected grids from smart_resize itself (320 x 240 picture).
  const ModelConfig qwen3 = readModelConfig("qwen3-vl-8b");
  const ModelConfig glm = readModelConfig("glm-4.5v");
  const ImageGrid q3 = smartResize(240, 320, qwen3.grid);
  const ImageGrid g = smartResize(240, 320, glm.grid);
  ASSERT_NE(q3.rows * q3.cols, before.rows * before.cols);  // the models cut it differently
  const Scene a = applyModel(s, qwen3);
  EXPECT_EQ(a.layout.segments[1].rows, q3.rows);
  EXPECT_EQ(a.layout.segments[1].cols, q3.cols);
  EXPECT_EQ(a.layout.tokenCount(), 12 + std::size_t(q3.rows * q3.cols));
  // The same as the layout parsed after the model (the command line's order).
  EXPECT_EQ(a.layout, parseLayoutSpec("t4,img:castle.png,t8", {samples, qwen3.grid}));
  const Scene b = applyModel(a, glm);
  EXPECT_EQ(b.layout.segments[1].rows, g.rows);
  EXPECT_EQ(b.layout.segments[1].cols, g.cols);
  EXPECT_EQ(b.layout, parseLayoutSpec("t4,img:castle.png,t8", {samples, glm.grid}));
}

// Text-only decoders (text_model.h): their rotary and its scaling, 1-D over every token; a rope
// block per layer type (5.x) gives the layer type asked for, full_attention by default.
TEST(ModelConfig, TextOnlyModelsReadTheirRotaryAndScaling) {
  const ModelConfig llama = readModelConfig("llama-3.1-8b");
  EXPECT_EQ(llama.family, "");
  EXPECT_EQ(llama.title, "Llama (text only)");
  EXPECT_EQ(llama.frequency.plan, "vanilla");
  EXPECT_EQ(llama.frequency.rotary.headDim, 128);
  EXPECT_EQ(llama.frequency.rotary.effectiveRotaryDim(), 128);
  EXPECT_EQ(llama.frequency.rotary.base, 500000.0);
  EXPECT_EQ(llama.frequency.rope.type, "llama3");
  EXPECT_EQ(llama.frequency.rope.params.find("factor"), 8.0);
  EXPECT_EQ(llama.frequency.rope.params.find("original_max_position_embeddings"), 8192.0);
  EXPECT_TRUE(llama.layerTypes.empty());
  const Scene s = applyModel(defaultScene(), llama);
  EXPECT_EQ(s.design, "hard");
  EXPECT_EQ(s.imageGrid, defaultScene().imageGrid);  // no processor: the scene's grid stays

  const ModelConfig phi = readModelConfig("phi-3-style-longrope");
  EXPECT_EQ(phi.frequency.rotary.headDim, 96);
  EXPECT_EQ(phi.frequency.rope.type, "longrope");
  EXPECT_EQ(phi.frequency.rope.shortFactor.size(), 48u);
  EXPECT_EQ(phi.frequency.rope.longFactor[47], 1.0 + 0.5 * 47);
  // The top-level original length (Phi-3) and max_position_embeddings reach the scaling.
  EXPECT_EQ(phi.frequency.rope.params.find("original_max_position_embeddings"), 4096.0);
  EXPECT_EQ(phi.frequency.rope.params.find("max_position_embeddings"), 131072.0);

  const ModelConfig full = readModelConfig("gemma-4-style-proportional");
  EXPECT_EQ(full.layerTypes, (std::vector<std::string>{"full_attention", "sliding_attention"}));
  EXPECT_EQ(full.layerType, "full_attention");
  EXPECT_EQ(full.frequency.rope.type, "proportional");
  EXPECT_EQ(full.frequency.rotary.base, 1e6);
  const PairTable ft = resolvePairs(full.frequency);
  ASSERT_EQ(ft.size(), 256);  // the ladder over the full head size 512
  EXPECT_GT(ft.theta[63], 0.0);
  EXPECT_EQ(ft.theta[64], 0.0);  // past partial_rotary_factor 0.25: not rotated
  const ModelConfig sliding = readModelConfig("gemma-4-style-proportional", "sliding_attention");
  EXPECT_EQ(sliding.layerType, "sliding_attention");
  EXPECT_FALSE(sliding.frequency.rope.active());
  EXPECT_EQ(sliding.frequency.rotary.base, 1e4);
  EXPECT_EQ(resolvePairs(sliding.frequency).size(), 256);
}

TEST(ModelConfig, TextOnlyAndPerLayerMistakesAreNamed) {
  EXPECT_EQ(errorOf([] { readModelConfig("gemma-4-style-proportional", "global"); }),
            "model config \"gemma-4-style-proportional\": layer type \"global\" has no block in "
            "rope_parameters (accepted: full_attention, sliding_attention)");
  EXPECT_EQ(errorOf([] { readModelConfig("llama-3.1-8b", "full_attention"); }),
            "model config \"llama-3.1-8b\": layer type \"full_attention\" asked for, but the "
            "config has one rope block for every layer (no rope_parameters per layer type)");
  const char* mixed = R"({"model_type": "llama", "hidden_size": 1024, "num_attention_heads": 8,
    "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4},
                        "original_max_position_embeddings": 4096}})";
  EXPECT_NE(errorOf([&] { modelConfigFromJson(mixed, {}, {}, "m"); })
                .find("rope_parameters.original_max_position_embeddings stands beside rope "
                      "blocks per layer type (full_attention)"),
            std::string::npos);
  const char* sections = R"({"model_type": "qwen2", "hidden_size": 1024, "num_attention_heads": 8,
    "rope_theta": 1e6, "rope_scaling": {"type": "default", "mrope_section": [16, 24, 24]}})";
  EXPECT_EQ(errorOf([&] { modelConfigFromJson(sections, {}, {}, "m"); }),
            "model config \"m\": rope_scaling.mrope_section is M-RoPE's; Qwen2 (text only) gives "
            "every pair the one text axis (a text-only model_type)");
  EXPECT_NE(errorOf([&] {
              modelConfigFromJson(R"({"model_type": "deepseek_v3"})", {}, {}, "m");
            }).find("text-only: llama/mistral/qwen2/qwen3/phi3/gpt_oss/gemma3/gemma3_text/"),
            std::string::npos);
  // A text-only model takes a processor output of text alone.
  TokenInput in;
  in.inputIds = {1, 2, 3, 4};
  const ModelConfig llama = readModelConfig("llama-3.1-8b");
  const Layout l = layoutFromTokens(in, llama);
  ASSERT_EQ(l.segments.size(), 1u);
  EXPECT_EQ(l.segments[0].length, 4);
  in.imageGrids = {{1, 4, 4}};
  EXPECT_EQ(errorOf([&] { layoutFromTokens(in, llama); }),
            "tokens: Llama (text only) is a text-only model, but the processor output has image, "
            "video or audio grids");
}
