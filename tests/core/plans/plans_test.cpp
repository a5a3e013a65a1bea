// Frequency plans: axis maps per the reference rules, NoPE bands, partial rotary, and the
// validation messages for every bad setting.
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/wavelengths.h"

using namespace ropescope;

namespace {
std::string mapString(const PairTable& t) {
  std::string s;
  for (Axis a : t.axis) s += a == Axis::None ? '0' : axisName(a)[0];
  return s;
}
std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}
}  // namespace

TEST(Plans, DefaultMapsFor128Dims) {
  FrequencySpec f;
  f.plan = "mrope";
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("t", 16) + repeat("h", 24) + repeat("w", 24));
  f.plan = "interleaved";
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("thw", 20) + "tttt");
  f.plan = "videorope";
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("hw", 24) + repeat("t", 16));
  f.plan = "hope";
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("hw", 24) + repeat("0", 16));
  f.plan = "vanilla";
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("t", 64));
}

TEST(Plans, NoPEPairsHaveZeroFrequencyAndNoWavelength) {
  FrequencySpec f;
  f.plan = "hope";
  const PairTable t = resolvePairs(f);
  for (int p = 48; p < 64; ++p) EXPECT_EQ(t.theta[p], 0.0);
  const auto w = wavelengths(t, 1e9);
  EXPECT_FALSE(w[63].wavelength.has_value());
  EXPECT_TRUE(w[0].fullTurn);
}

TEST(Plans, MultiheadGivesEachKvHeadOneAxis) {
  FrequencySpec f;
  f.plan = "multihead";
  const char expected[] = "tthhhwww";
  for (int h = 0; h < 8; ++h) {
    f.kvHead = h;
    EXPECT_EQ(mapString(resolvePairs(f)), repeat(std::string(1, expected[h]), 64));
  }
  f.sections = {2, 3, 2};
  f.kvHead = 7;
  EXPECT_EQ(mapString(resolvePairs(f)), repeat("0", 64));
}

TEST(Plans, PartialRotaryUsesTheRotaryDim) {
  FrequencySpec f;
  f.plan = "interleaved";
  f.rotary = {256, 64, 1e7};
  f.sections = {11, 11, 10};
  const PairTable t = resolvePairs(f);
  ASSERT_EQ(t.size(), 32);
  EXPECT_EQ(mapString(t), repeat("thw", 10) + "th");
  EXPECT_DOUBLE_EQ(t.theta[16], std::pow(1e7, -0.5));
}

TEST(Plans, WavelengthIsTwoPiOverTheta) {
  FrequencySpec f;
  f.plan = "vanilla";
  f.rotary.base = 1e4;
  const auto w = wavelengths(resolvePairs(f), 4096);
  EXPECT_NEAR(*w[63].wavelength, 54410.14, 0.01);  // docs/math.md#wavelengths
  int turns = 0;
  for (const auto& p : w) turns += p.fullTurn;
  EXPECT_EQ(turns, 46);  // d_extra / 2 for L = 4096 at base 1e4 (92 dims)
}

struct BadPlan {
  FrequencySpec spec;
  const char* field;
  const char* text;
};

TEST(Plans, BadSettingsNameTheFieldAndRange) {
  auto spec = [](const char* plan, int head, int rot, double base, std::vector<int> sec) {
    FrequencySpec f;
    f.plan = plan;
    f.rotary = {head, rot, base};
    f.sections = std::move(sec);
    return f;
  };
  const BadPlan cases[] = {
      {spec("mrope", 127, 0, 1e6, {}), "head_dim", "even"},
      {spec("mrope", 0, 0, 1e6, {}), "head_dim", "2..1024"},
      {spec("mrope", 128, 130, 1e6, {}), "rotary_dim", "2..head dim 128"},
      {spec("mrope", 128, 0, 1.0, {}), "base", "(1, 1e12]"},
      {spec("mrope", 128, 0, std::nan(""), {}), "base", "finite"},
      {spec("mrope", 128, 0, 1e6, {16, 24, 23}), "sections", "sum to 63"},
      {spec("mrope", 128, 0, 1e6, {16, 48}), "sections", "three numbers"},
      {spec("interleaved", 128, 0, 1e6, {-1, 40, 25}), "sections", ">= 0"},
      {spec("videorope", 128, 0, 1e6, {16, 30, 18}), "sections", "must be equal"},
      {spec("multihead", 128, 0, 1e6, {3, 3, 3}), "sections", "at most kv heads 8"},
      {spec("vanilla", 128, 0, 1e6, {1, 2, 3}), "sections", "takes no sections"},
      {spec("spiral", 128, 0, 1e6, {}), "plan", "accepted: vanilla"},
  };
  for (const BadPlan& c : cases) {
    try {
      resolvePairs(c.spec);
      ADD_FAILURE() << "accepted plan " << c.spec.plan << " expecting " << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), c.field) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.text), std::string::npos) << e.what();
    }
  }
}
