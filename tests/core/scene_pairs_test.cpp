// The pair layout in the scene file: saved as frequency.pairs "neox" / "gptj", read
// back, absent = NeoX (files written before it), a bad value refused naming both choices.
#include <gtest/gtest.h>

#include "ropescope/errors.h"
#include "ropescope/scene.h"

namespace ropescope {
namespace {

TEST(ScenePairs, RoundTripsAndDefaultsToNeoX) {
  Scene s = defaultScene();
  s.frequency.rotary = {128, 64, 1e4, PairLayout::GptJ};
  const std::string text = sceneToJson(s);
  EXPECT_NE(text.find("\"pairs\": \"gptj\""), std::string::npos) << text;
  EXPECT_EQ(sceneFromJson(text).frequency.rotary.pairs, PairLayout::GptJ);
  EXPECT_EQ(sceneFromJson(text), s);
  const Scene old = sceneFromJson(
      R"({"format":"ropescope-scene","version":1,"layout":"t3","frequency":{"head_dim":64}})");
  EXPECT_EQ(old.frequency.rotary.pairs, PairLayout::NeoX);
  EXPECT_NE(sceneToJson(defaultScene()).find("\"pairs\": \"neox\""), std::string::npos);
}

TEST(ScenePairs, BadValuesAreOneLineErrors) {
  const char* cases[][2] = {
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"pairs":"gpt-j"}})",
       "neox (dims p, p + r/2) or gptj (dims 2p, 2p + 1) (got \"gpt-j\")"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"pairs":1}})",
       "frequency.pairs must be one of neox, gptj (got 1)"},
  };
  for (const auto& c : cases) {
    try {
      sceneFromJson(c[0]);
      ADD_FAILURE() << "accepted: " << c[0];
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("scene file: frequency.", 0), 0u) << m;
      EXPECT_NE(m.find(c[1]), std::string::npos) << m;
      EXPECT_EQ(e.field(), "pairs");
    }
  }
}

}  // namespace
}  // namespace ropescope
