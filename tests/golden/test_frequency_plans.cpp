// Golden pair->axis maps and inv_freq samples: resolvePairs and pairFrequency against the channel
// maps at the end of data/ids_reference.txt and the layouts of data/decay_bound.txt §2.
//
// Golden entries deliberately NOT checked (outside the core API):
//   * the MHRoPE "e.g. 16 query heads / 8 KV heads: query head q uses KV head q//2" line -- the
//     API selects a KV head directly (FrequencySpec::kvHead); query-head grouping is not modelled.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "golden_checks.h"
#include "golden_reader.h"
#include "ropescope/frequency_plan.h"

namespace golden {
namespace {

using ropescope::Axis;
using ropescope::FrequencySpec;
using ropescope::PairTable;

Axis axisOf(char c) {
  switch (c) {
    case 't':
    case 'T':
      return Axis::T;
    case 'h':
    case 'H':
      return Axis::H;
    case 'w':
    case 'W':
      return Axis::W;
    case '0':
    case '-':
      return Axis::None;
    default:
      throw std::runtime_error(std::string("golden: unknown axis char ") + c);
  }
}

FrequencySpec spec(const std::string& plan, std::vector<int> sections, int headDim = 128,
                   int rotaryDim = 0, double base = 1e6) {
  FrequencySpec s;
  s.plan = plan;
  s.rotary.headDim = headDim;
  s.rotary.rotaryDim = rotaryDim;
  s.rotary.base = base;
  s.sections = std::move(sections);
  return s;
}

std::string axisString(const PairTable& t) {
  std::string out;
  for (Axis a : t.axis) out += a == Axis::None ? '0' : ropescope::axisName(a)[0];
  return out;
}

// The resolved table has the golden axis of every pair, and the frequency the reference uses:
// base^(-2p/rot_dim) for a rotating pair, exactly 0 for a NoPE pair.
void expectTable(const FrequencySpec& s, const std::string& goldenAxes) {
  SCOPED_TRACE("plan " + s.plan + " golden map " + goldenAxes);
  const PairTable t = ropescope::resolvePairs(s);
  const int rot = s.rotary.effectiveRotaryDim();
  ASSERT_EQ(t.size(), static_cast<int>(goldenAxes.size()));
  ASSERT_EQ(static_cast<int>(t.theta.size()), t.size());
  std::string got;
  for (int p = 0; p < t.size(); ++p) {
    const Axis want = axisOf(goldenAxes[p]);
    EXPECT_EQ(t.axis[p], want) << "pair " << p << " (resolved map " << axisString(t) << ")";
    if (want == Axis::None) {
      EXPECT_EQ(t.theta[p], 0.0) << "NoPE pair " << p;
    } else {
      EXPECT_TRUE(near(t.theta[p], std::pow(s.rotary.base, -2.0 * p / rot), 0, 1e-14))
          << "theta of pair " << p;
      EXPECT_TRUE(near(t.theta[p], ropescope::pairFrequency(s.rotary.base, p, rot), 0, 1e-15))
          << "theta of pair " << p << " vs pairFrequency";
    }
  }
  // pairsOf agrees with the axis vector.
  for (Axis a : {Axis::T, Axis::H, Axis::W}) {
    int n = 0;
    for (char c : goldenAxes) n += axisOf(c) == a;
    EXPECT_EQ(static_cast<int>(t.pairsOf(a).size()), n) << ropescope::axisName(a);
  }
}

const ChannelMapBlock& goldenMap(const std::string& titlePrefix) {
  const ChannelMapBlock* b = idsReference().findMap(titlePrefix);
  if (!b || b->axes.empty())
    throw std::runtime_error("golden channel map '" + titlePrefix +
                             "' missing in ids_reference.txt");
  return *b;
}

TEST(ChannelMapsFile, ListedCountsAgreeWithMapStrings) {
  const auto& maps = idsReference().maps;
  ASSERT_GE(maps.size(), 8u);
  int withString = 0;
  for (const auto& m : maps) {
    if (m.axes.empty()) continue;
    ++withString;
    SCOPED_TRACE(m.title);
    std::map<char, int> counts;
    for (char c : m.axes) ++counts[c];
    EXPECT_EQ(counts, m.listedCounts);
  }
  EXPECT_EQ(withString, 7);
}

TEST(ChannelMaps, MropeChunked_16_24_24) {
  const auto& g = goldenMap("MRoPE chunked [16,24,24]");
  expectTable(spec("mrope", {16, 24, 24}), g.axes);
  expectTable(spec("mrope", {}), g.axes);  // the plan's default sections for 64 pairs
  expectTable(spec("mrope", {16, 24, 24}, 128, 0, 1e4), g.axes);
}

TEST(ChannelMaps, MropeInterleaved_24_20_20) {
  const auto& g = goldenMap("MRoPE-I interleaved [24,20,20]");
  expectTable(spec("interleaved", {24, 20, 20}), g.axes);
  expectTable(spec("interleaved", {}), g.axes);
  expectTable(spec("interleaved", {24, 20, 20}, 128, 0, 5e6), g.axes);
}

TEST(ChannelMaps, VideoRopeOfficial) {
  const auto& g = goldenMap("VideoRoPE official [16,24,24]");
  expectTable(spec("videorope", {}), g.axes);
  if (ropescope::findPlan("videorope").usesSections())
    expectTable(spec("videorope", {16, 24, 24}), g.axes);
}

TEST(ChannelMaps, VideoRopeRevisitingRepoPort) {
  const auto& g = goldenMap("VideoRoPE Revisiting-repo port [16,24,24]");
  expectTable(spec("videorope-repo", {}), g.axes);
  if (ropescope::findPlan("videorope-repo").usesSections())
    expectTable(spec("videorope-repo", {16, 24, 24}), g.axes);
}

TEST(ChannelMaps, HopeOfficialTemporalBandIsNope) {
  const auto& g = goldenMap("HoPE official (t pairs -> NoPE)");
  expectTable(spec("hope", {}), g.axes);
  if (ropescope::findPlan("hope").usesSections()) expectTable(spec("hope", {16, 24, 24}), g.axes);
}

TEST(ChannelMaps, Qwen35PartialRotaryInterleaved_11_11_10) {
  const auto& g = goldenMap("MRoPE-I with Qwen3.5 partial rotary");
  ASSERT_EQ(bracketInts(g.title), (std::vector<int>{11, 11, 10}));
  // head_dim 256, partial factor 0.25 -> rot_dim 64, 32 pairs; base 1e7.
  expectTable(spec("interleaved", {11, 11, 10}, 256, 64, 1e7), g.axes);
}

TEST(ChannelMaps, MmRopeLumos1) {
  const auto& g = goldenMap("MM-RoPE (Lumos-1) t,t,h,w,h,w,h,w");
  expectTable(spec("mm-rope", {}), g.axes);
  expectTable(spec("mm-rope", {}, 128, 0, 5e6), g.axes);
}

TEST(ChannelMaps, VanillaEveryPairOnT) {
  expectTable(spec("vanilla", {}), std::string(64, 't'));
  expectTable(spec("vanilla", {}, 256, 64, 1e7), std::string(32, 't'));
}

TEST(ChannelMaps, DecayBoundLayouts) {
  const auto& layouts = decayBound().layouts;
  const std::map<std::string, FrequencySpec> specs = {
      {"MRoPE [16,24,24] chunked", spec("mrope", {16, 24, 24})},
      {"MRoPE-I [24,20,20] HF interleave", spec("interleaved", {24, 20, 20})},
      {"MRoPE-I [16,24,24] HF interleave", spec("interleaved", {16, 24, 24})},
  };
  ASSERT_EQ(layouts.size(), specs.size()) << "decay_bound.txt §2 layouts";
  for (const auto& l : layouts) {
    SCOPED_TRACE(l.label);
    const auto it = specs.find(l.label);
    ASSERT_NE(it, specs.end()) << "unmapped decay_bound layout";
    std::map<char, int> counts;
    for (char c : l.axes) ++counts[c];
    EXPECT_EQ(counts, l.counts);
    expectTable(it->second, l.axes);
  }
}

TEST(ChannelMaps, MultiheadKvHeadAxes) {
  const auto& mh = idsReference().mhrope;
  ASSERT_EQ(mh.size(), 2u) << "MHRoPE [2,3,3] and [2,3,2] lines";
  for (const auto& m : mh) {
    ASSERT_EQ(static_cast<int>(m.headAxes.size()), m.kvHeads);
    for (int h = 0; h < m.kvHeads; ++h) {
      SCOPED_TRACE("MHRoPE sections " + std::to_string(m.sections.size()) + " kvHead " +
                   std::to_string(h));
      FrequencySpec s = spec("multihead", m.sections);
      s.kvHeads = m.kvHeads;
      s.kvHead = h;
      // Inside a KV head every pair uses that head's axis with the normal spectrum.
      expectTable(s, std::string(64, m.headAxes[h]));
      if (m.sections == std::vector<int>{2, 3, 3}) {
        s.sections.clear();  // default for 8 KV heads
        expectTable(s, std::string(64, m.headAxes[h]));
      }
    }
  }
}

TEST(InvFreqSamples, PairFrequencyMatchesGolden) {
  const auto& ref = idsReference();
  ASSERT_EQ(ref.invFreqRotDim, 128);
  ASSERT_EQ(ref.invFreq.size(), 3u) << "bases 1e4, 1e6, 5e6";
  for (const auto& s : ref.invFreq) {
    ASSERT_FALSE(s.pairs.empty());
    for (const auto& [p, v] : s.pairs)
      EXPECT_TRUE(matches(ropescope::pairFrequency(s.base, p, ref.invFreqRotDim), v))
          << "base " << s.base << " p" << p;
  }
}

}  // namespace
}  // namespace golden
