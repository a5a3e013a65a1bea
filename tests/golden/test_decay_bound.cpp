// Golden decay bound and companion values (data/decay_bound.txt, docs/math.md#decay-bound,
// docs/reference-data.md#decay_boundtxt): decayBound, decayCurve, subsetPairs, wavelengths,
// positionalBias and the Circle-RoPE counterexample (PTD ~ 0 while the RoPE bias still spreads over
// the ring).
//
// Golden sections deliberately NOT checked (outside the core API):
//   * §3 "d_extra" (critical dimension, Liu et al.) -- only the full-period pair count and the
//     wavelength range of those lines are checked;
//   * §3 "NTK-aware base" and the "YaRN ... HF low/high, attention_factor" block with its per-pair
//     frequency ratios -- no context-extension scaling in the core;
//   * §3 "first cos<0" critical lengths (HoPE's argument).
// The "SP kernel sum cos" rows are checked through positionalBias (K = n * b), and the Lambda
// (sum of theta) lines through the resolved PairTable.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

#include "golden_checks.h"
#include "golden_reader.h"
#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/wavelengths.h"

namespace golden {
namespace {

using ropescope::Axis;
using ropescope::DecayForm;
using ropescope::FrequencySpec;
using ropescope::Id3;
using ropescope::PairTable;

PairTable table(const std::string& plan, std::vector<int> sections, double base,
                int headDim = 128) {
  FrequencySpec s;
  s.plan = plan;
  s.rotary.headDim = headDim;
  s.rotary.base = base;
  s.sections = std::move(sections);
  return ropescope::resolvePairs(s);
}

Id3 scaled(const Id3& dir, double r) {
  return {dir[0] * r, dir[1] * r, dir[2] * r};
}

Id3 axisDirection(Axis a) {
  Id3 d{0, 0, 0};
  d[static_cast<int>(a)] = 1;
  return d;
}

// ---- §1 RoFormer -------------------------------------------------------------------------------

TEST(RoformerBound, DocumentedSpotValues) {
  // docs/math.md#decay-bound: an independent check of the golden file.
  const PairTable p4 = table("vanilla", {}, 1e4);
  const PairTable p6 = table("vanilla", {}, 1e6);
  const Id3 one{1, 1, 1};
  EXPECT_NEAR(ropescope::decayBound(p4, {0, 0, 0}), 32.5, 1e-12);  // (d/2 + 1) / 2
  EXPECT_TRUE(near(ropescope::decayBound(p4, scaled(one, 10)), 17.954137137085, 0.5e-12, 1e-9));
  EXPECT_TRUE(near(ropescope::decayBound(p4, scaled(one, 200)), 7.244770748511, 0.5e-12, 1e-9));
  EXPECT_TRUE(near(ropescope::decayBound(p6, scaled(one, 200)), 11.861137986406, 0.5e-12, 1e-9));
  const PairTable chunked = table("mrope", {16, 24, 24}, 1e4);
  EXPECT_TRUE(near(ropescope::decayBound(chunked, {50, 0, 0}), 21.855130565307, 0.5e-12, 1e-9));
}

void expectRoformerRow(const std::string& label, double base) {
  const DecayBound& db = decayBound();
  const DecayRow* row = db.findRoformer(label);
  ASSERT_NE(row, nullptr) << "decay_bound.txt §1 row '" << label << "' missing";
  ASSERT_EQ(row->values.size(), db.distances.size());
  const PairTable vanilla = table("vanilla", {}, base);
  const PairTable chunked = table("mrope", {16, 24, 24}, base);
  const int maxD = db.distances.back();
  const auto curve = ropescope::decayCurve(vanilla, {1, 0, 0}, maxD);
  ASSERT_EQ(static_cast<int>(curve.size()), maxD + 1);
  for (std::size_t i = 0; i < db.distances.size(); ++i) {
    const int d = db.distances[i];
    SCOPED_TRACE("delta " + std::to_string(d));
    EXPECT_TRUE(matches(ropescope::decayBound(vanilla, {double(d), 0, 0}), row->values[i]));
    EXPECT_TRUE(matches(curve[d], row->values[i])) << "decayCurve";
    // All three axes moving together under a multi-axis plan is plain 1-D RoPE.
    EXPECT_TRUE(
        matches(ropescope::decayBound(chunked, {double(d), double(d), double(d)}), row->values[i]))
        << "mrope (d,d,d)";
  }
}

TEST(RoformerBound, Base1e4) {
  expectRoformerRow("base=10000", 1e4);
}
TEST(RoformerBound, Base1e6) {
  expectRoformerRow("base=1e+06", 1e6);
}

TEST(RoformerBound, Base1e4ExtraDistances) {
  const DecayBound& db = decayBound();
  ASSERT_EQ(db.extraDistances, (std::vector<int>{150, 250, 256}));
  ASSERT_EQ(db.extra1e4.size(), 3u);
  const PairTable vanilla = table("vanilla", {}, 1e4);
  const auto curve = ropescope::decayCurve(vanilla, {1, 1, 1}, 256);
  for (std::size_t i = 0; i < 3; ++i) {
    const double d = db.extraDistances[i];
    EXPECT_TRUE(matches(ropescope::decayBound(vanilla, {d, d, d}), db.extra1e4[i])) << d;
    EXPECT_TRUE(matches(curve[db.extraDistances[i]], db.extra1e4[i])) << "decayCurve " << d;
  }
}

// ---- §2 per-axis curves ---------------------------------------------------------------------

struct AxisRow {
  std::string base;  // "10000" / "1e+06"
  std::string form;  // "full-head" / "axis-only"
  std::string label;
  std::string plan;
  std::vector<int> sections;
  Id3 direction;
  bool oneAxis;
  Axis axis;
  std::string name;
};

std::vector<AxisRow> axisRows() {
  std::vector<AxisRow> out;
  struct Layout {
    const char* prefix;
    const char* plan;
    std::vector<int> sections;
    const char* name;
  };
  const std::vector<Layout> layouts = {
      {"MRoPE [16,24,24] chunked", "mrope", {16, 24, 24}, "mrope_16_24_24"},
      {"MRoPE-I [24,20,20]", "interleaved", {24, 20, 20}, "interleaved_24_20_20"},
      {"MRoPE-I [16,24,24]", "interleaved", {16, 24, 24}, "interleaved_16_24_24"},
  };
  for (const char* base : {"10000", "1e+06"}) {
    for (const char* form : {"full-head", "axis-only"}) {
      const std::string prefix =
          std::string(base == std::string("10000") ? "base1e4_" : "base1e6_") +
          (form == std::string("full-head") ? "full_" : "axisonly_");
      for (const auto& l : layouts) {
        for (Axis a : {Axis::T, Axis::H, Axis::W}) {
          const char c = "THW"[static_cast<int>(a)];
          out.push_back({base, form, std::string(l.prefix) + " " + c, l.plan, l.sections,
                         axisDirection(a), true, a, prefix + l.name + "_" + c});
        }
      }
      out.push_back({base,
                     form,
                     "(all axes together = 1D)",
                     "mrope",
                     {16, 24, 24},
                     {1, 1, 1},
                     false,
                     Axis::T,
                     prefix + "all_axes_1d"});
    }
  }
  return out;
}

class AxisDecay : public ::testing::TestWithParam<AxisRow> {};

TEST_P(AxisDecay, BoundAndCurveMatchGolden) {
  const AxisRow& r = GetParam();
  const DecayBound& db = decayBound();
  const DecayTable* t = db.findTable(r.base, r.form);
  ASSERT_NE(t, nullptr) << "decay_bound.txt §2 table base=" << r.base << " " << r.form
                        << " missing";
  const DecayRow* row = t->find(r.label);
  ASSERT_NE(row, nullptr) << "row '" << r.label << "' missing";
  ASSERT_EQ(row->values.size(), db.distances.size());
  const PairTable pairs = table(r.plan, r.sections, std::stod(r.base));
  const bool subset = r.form == "axis-only" && r.oneAxis;
  const DecayForm form = subset ? DecayForm::Subset : DecayForm::Full;
  const PairTable used = subset ? ropescope::subsetPairs(pairs, r.axis) : pairs;
  if (subset) {
    EXPECT_EQ(used.size(), static_cast<int>(pairs.pairsOf(r.axis).size()));
    for (Axis a : used.axis) EXPECT_EQ(a, r.axis);
    EXPECT_NEAR(row->values[0].value, (used.size() + 1) / 2.0, 1e-12) << "U(0) = (n+1)/2";
  }
  const int maxD = db.distances.back();
  const auto curve = ropescope::decayCurve(pairs, r.direction, maxD, form);
  const auto ref = ropescope::decayCurveReference(pairs, r.direction, maxD, form);
  ASSERT_EQ(static_cast<int>(curve.size()), maxD + 1);
  ASSERT_EQ(static_cast<int>(ref.size()), maxD + 1);
  for (std::size_t i = 0; i < db.distances.size(); ++i) {
    const int d = db.distances[i];
    SCOPED_TRACE("delta " + std::to_string(d));
    EXPECT_TRUE(matches(ropescope::decayBound(used, scaled(r.direction, d)), row->values[i]))
        << "decayBound";
    EXPECT_TRUE(matches(curve[d], row->values[i])) << "decayCurve";
    EXPECT_TRUE(matches(ref[d], row->values[i])) << "decayCurveReference";
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, AxisDecay, ::testing::ValuesIn(axisRows()),
                         [](const ::testing::TestParamInfo<AxisRow>& info) {
                           return info.param.name;
                         });

TEST(DecayBoundFile, EverySection2RowIsChecked) {
  const DecayBound& db = decayBound();
  ASSERT_EQ(db.distances, (std::vector<int>{0, 1, 2, 5, 10, 20, 50, 100, 200}));
  ASSERT_EQ(db.tables.size(), 4u);
  const auto rows = axisRows();
  for (const auto& t : db.tables)
    for (const auto& row : t.rows)
      EXPECT_TRUE(std::any_of(rows.begin(), rows.end(),
                              [&](const AxisRow& r) {
                                return r.base == t.base && r.form == t.form && r.label == row.label;
                              }))
          << "unchecked row '" << row.label << "' in base=" << t.base << " " << t.form;
  EXPECT_EQ(db.roformer.size(), 2u);
}

// ---- decayCurve (rotation recurrence) vs decayBound (exact trig), far out ---------------------

struct FormulationCase {
  const char* plan;
  std::vector<int> sections;
  Id3 direction;
  DecayForm form;
  Axis axis;
};

TEST(DecayFormulation, RecurrenceAgreesWithExactBoundTo1e5) {
  constexpr int kMax = 100000;
  const std::vector<FormulationCase> cases = {
      {"vanilla", {}, {1, 1, 1}, DecayForm::Full, Axis::T},
      {"mrope", {16, 24, 24}, {1, 0, 0}, DecayForm::Full, Axis::T},
      {"mrope", {16, 24, 24}, {0, 1, 0}, DecayForm::Full, Axis::H},
      {"mrope", {16, 24, 24}, {0, 0, 1}, DecayForm::Full, Axis::W},
      {"mrope", {16, 24, 24}, {1, 0, 0}, DecayForm::Subset, Axis::T},
      {"mrope", {16, 24, 24}, {0, 1, 0}, DecayForm::Subset, Axis::H},
      {"mrope", {16, 24, 24}, {0, 0, 1}, DecayForm::Subset, Axis::W},
      {"interleaved", {24, 20, 20}, {1, 0, 0}, DecayForm::Full, Axis::T},
      {"interleaved", {24, 20, 20}, {0, 1, 0}, DecayForm::Subset, Axis::H},
      {"interleaved", {24, 20, 20}, {0, 0, 1}, DecayForm::Full, Axis::W},
  };
  for (double base : {1e4, 1e6}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.plan) + " base " + std::to_string(base) + " axis " +
                   ropescope::axisName(c.axis) +
                   (c.form == DecayForm::Subset ? " subset" : " full"));
      const PairTable pairs = table(c.plan, c.sections, base);
      const PairTable used =
          c.form == DecayForm::Subset ? ropescope::subsetPairs(pairs, c.axis) : pairs;
      const auto curve = ropescope::decayCurve(pairs, c.direction, kMax, c.form);
      ASSERT_EQ(static_cast<int>(curve.size()), kMax + 1);
      int bad = 0;
      // A stride prime to the 2048-step re-anchoring, plus the last distance.
      for (int d = 0; d <= kMax; d = (d == kMax ? kMax + 1 : std::min(d + 997, kMax))) {
        const double exact = ropescope::decayBound(used, scaled(c.direction, d));
        const auto r = near(curve[d], exact, 0, 1e-9);
        if (!r && ++bad <= 5) ADD_FAILURE() << "distance " << d << ": " << r.message();
      }
      EXPECT_EQ(bad, 0);
    }
  }
}

// ---- §3 companion quantities ----------------------------------------------------------------

TEST(Wavelengths, FullPeriodPairsAndRange) {
  const auto& lines = decayBound().wavelengths;
  ASSERT_EQ(lines.size(), 5u);
  for (const auto& w : lines) {
    SCOPED_TRACE("base " + std::to_string(w.base) + " L " + std::to_string(w.context));
    const PairTable pairs = table("vanilla", {}, w.base, w.headDim);
    const auto wl = ropescope::wavelengths(pairs, w.context);
    ASSERT_EQ(static_cast<int>(wl.size()), w.headDim / 2);
    int full = 0;
    double lo = INFINITY, hi = 0;
    for (std::size_t i = 0; i < wl.size(); ++i) {
      ASSERT_TRUE(wl[i].wavelength.has_value());
      EXPECT_EQ(wl[i].index, static_cast<int>(i));
      EXPECT_TRUE(near(*wl[i].wavelength, 2 * std::numbers::pi / pairs.theta[i], 0, 1e-15));
      EXPECT_EQ(wl[i].fullTurn, *wl[i].wavelength <= w.context) << "pair " << i;
      full += wl[i].fullTurn;
      lo = std::min(lo, *wl[i].wavelength);
      hi = std::max(hi, *wl[i].wavelength);
    }
    EXPECT_EQ(full, w.fullPeriodPairs);
    EXPECT_TRUE(matches(lo, w.lambdaMin)) << "lambda_min";
    EXPECT_TRUE(matches(hi, w.lambdaMax)) << "lambda_max";
  }
}

TEST(Wavelengths, NopePairsHaveNone) {
  FrequencySpec s;
  s.plan = "hope";
  s.rotary.base = 1e6;
  const auto wl = ropescope::wavelengths(ropescope::resolvePairs(s), 4096);
  ASSERT_EQ(wl.size(), 64u);
  for (int p = 48; p < 64; ++p) {
    EXPECT_FALSE(wl[p].wavelength.has_value()) << p;
    EXPECT_FALSE(wl[p].fullTurn) << p;
  }
}

TEST(PositionalBias, SemanticKernelIsPairCountTimesBias) {
  const DecayBound& db = decayBound();
  ASSERT_EQ(db.kernel.size(), 2u);
  for (const auto& k : db.kernel) {
    SCOPED_TRACE("base " + k.base);
    ASSERT_EQ(k.values.size(), db.distances.size());
    const PairTable pairs = table("vanilla", {}, std::stod(k.base));
    for (std::size_t i = 0; i < db.distances.size(); ++i) {
      const double d = db.distances[i];
      EXPECT_TRUE(matches(64.0 * ropescope::positionalBias(pairs, {d, d, d}), k.values[i]))
          << "delta " << d;
      EXPECT_TRUE(matches(64.0 * ropescope::positionalBias(pairs, {-d, 0, 0}), k.values[i]))
          << "delta " << -d << " (cos is even)";
    }
  }
}

TEST(FrequencySums, LambdaTotalAndPerAxis) {
  const auto& lines = decayBound().lambdas;
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& l : lines) {
    SCOPED_TRACE("base " + std::to_string(l.base));
    const PairTable pairs = table("mrope", {16, 24, 24}, l.base);
    EXPECT_TRUE(matches(std::accumulate(pairs.theta.begin(), pairs.theta.end(), 0.0), l.total));
    ASSERT_EQ(l.perAxis.size(), 3u);
    for (const auto& [c, v] : l.perAxis) {
      const Axis a = c == 'T' ? Axis::T : c == 'H' ? Axis::H : Axis::W;
      double sum = 0;
      for (int p : pairs.pairsOf(a)) sum += pairs.theta[p];
      EXPECT_TRUE(matches(sum, v)) << c;
    }
  }
}

// The counterexample of docs/math.md#positional-bias: 9 tokens on a radius-10 ring (alpha 0, CIP
// basis), one text token at (o,o,o) from the ring centre, chunked [16,24,24] at base 1e6.
TEST(CircleCounterexample, PtdZeroButBiasSpreads) {
  const auto& rows = decayBound().counterexample;
  ASSERT_EQ(rows.size(), 3u);
  const Params ring = {{"alpha", 0}, {"radius_mode", 0}, {"radius", 10}, {"centre", 1}, {"dff", 0}};
  const ropescope::PositionIds img = computeIds("circle", "i3x3", ring);
  ASSERT_EQ(img.size(), 9u);
  const PairTable pairs = table("mrope", {16, 24, 24}, 1e6);
  for (const auto& row : rows) {
    SCOPED_TRACE("text offset " + std::to_string(row.offset));
    ropescope::PositionIds ids = img;
    ids.ids.push_back({row.offset, row.offset, row.offset});
    ropescope::TokenInfo text;
    text.segment = 1;
    ids.tokens.push_back(text);
    const std::size_t q = ids.size() - 1;

    const auto ptd = ropescope::perTokenDistance(ids);
    EXPECT_LT(std::fabs(ptd.ptd), 1e-12) << "golden PTD " << row.ptd.text;
    for (double d : ropescope::distancesToVisual(ids, q)) EXPECT_TRUE(matches(d, row.dist));

    std::vector<double> k, u;
    for (std::size_t i = 0; i < 9; ++i) {
      const Id3 delta = ropescope::displacement(ids, q, i);
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(delta[a], ids.ids[q][a] - ids.ids[i][a], 1e-12);
      k.push_back(64.0 * ropescope::positionalBias(pairs, delta));
      u.push_back(ropescope::decayBound(pairs, delta));
    }
    EXPECT_TRUE(matches(*std::min_element(k.begin(), k.end()), row.kMin)) << "K min";
    EXPECT_TRUE(matches(*std::max_element(k.begin(), k.end()), row.kMax)) << "K max";
    EXPECT_TRUE(matches(*std::min_element(u.begin(), u.end()), row.uMin)) << "U min";
    EXPECT_TRUE(matches(*std::max_element(u.begin(), u.end()), row.uMax)) << "U max";

    // Bias spread = mean absolute deviation of b over the ring: clearly positive although PTD = 0.
    const double mean = std::accumulate(k.begin(), k.end(), 0.0) / k.size();
    double mad = 0;
    for (double v : k) mad += std::fabs(v - mean);
    mad /= 64.0 * k.size();
    const auto spread = ropescope::biasSpread(ids, pairs);
    EXPECT_GT(spread.spread, 1e-3);
    EXPECT_NEAR(spread.spread, mad, 1e-12);
    EXPECT_NEAR(ropescope::biasSpreadReference(ids, pairs).spread, mad, 1e-12);
  }
}

TEST(HardPtd, OneDimensionalTwentyNinths) {
  const DecayBound& db = decayBound();
  ASSERT_TRUE(db.hasHardPtd);
  // 9 image indices 2..10, text 0, 1, 11, 12, 13.
  const auto ids = computeIds("hard", "t2,i3x3,t3");
  const double ptd = ropescope::perTokenDistance(ids).ptd;
  EXPECT_TRUE(matches(ptd, db.hardPtd));
  EXPECT_NEAR(ptd, 20.0 / 9.0, 1e-12);
}

}  // namespace
}  // namespace golden
