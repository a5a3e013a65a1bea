// Each layer type's rotary of the shipped Gemma 3, Gemma 4 and Llama 4 configs, as the layer stack
// reads it (layer_stack.h), against transformers' own float32 inv_freq for that layer type, bit for
// bit: data/layer_rotary_reference.json, made by executing modeling_rope_utils.py at each
// version (scripts/regen-layer-golden.py; provenance in docs/reference-data.md).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "ropescope/layer_stack.h"
#include "ropescope/rope_scaling.h"

namespace golden {
namespace {

using json = nlohmann::json;

const json& layerReference() {
  static const json j = [] {
    std::ifstream in(std::string(ROPESCOPE_GOLDEN_DIR) + "/layer_rotary_reference.json");
    return json::parse(in);
  }();
  return j;
}

TEST(LayerRotaryGolden, EveryLayerTypeMatchesTransformersBitForBit) {
  const json& cases = layerReference().at("cases");
  ASSERT_EQ(cases.size(), 5u);
  for (const json& c : cases) {
    const std::string model = c.at("model"), type = c.at("layer_type");
    SCOPED_TRACE(model + " " + type);
    const ropescope::LayerStack stack =
        ropescope::readLayerStack(std::string(ROPESCOPE_MODELS) + "/" + model);
    const ropescope::StackLayer& layer =
        stack.layers[static_cast<std::size_t>(ropescope::firstLayerOfType(stack, type))];
    ropescope::RopeScaling scaling = layer.frequency.rope;
    if (!scaling.active()) scaling.type = "default";
    ropescope::RopeInputs in;
    in.base = layer.frequency.rotary.base;
    in.headDim = layer.frequency.rotary.headDim;
    in.rotaryDim = layer.frequency.rotary.effectiveRotaryDim();
    in.scaling = &scaling;
    const ropescope::ScaledFrequencies f = ropescope::scaleFrequencies(scaling, in);
    for (const json& r : c.at("results")) {
      SCOPED_TRACE(r.at("versions").dump());
      EXPECT_EQ(scaling.type, r.at("rope_type").get<std::string>());
      EXPECT_EQ(f.attentionFactor, r.at("attention_factor").get<double>());
      const json& bits = r.at("f32_bits");
      ASSERT_EQ(f.invFreq32.size(), bits.size());
      int differ = 0;
      for (std::size_t i = 0; i < bits.size(); ++i)
        differ += std::bit_cast<std::uint32_t>(f.invFreq32[i]) !=
                  static_cast<std::uint32_t>(std::stoul(bits[i].get<std::string>(), nullptr, 16));
      EXPECT_EQ(differ, 0);
    }
  }
}

}  // namespace
}  // namespace golden
