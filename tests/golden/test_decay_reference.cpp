// Golden per-axis decay curves of data/decay_reference.txt (Fig. 4 reconstruction of arXiv
// 2510.23095, docs/math.md#decay-curves): decayCurve in the subset and full forms at base 1e6.
// Every row of both tables is checked: vanilla, MRoPE, MRoPE-I, MHRoPE (every KV-head axis;
// equal to vanilla) and VideoRoPE (official map), raw values and values normalised to r = 0.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "golden_checks.h"
#include "golden_reader.h"
#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"

namespace golden {
namespace {

using ropescope::Axis;
using ropescope::DecayForm;
using ropescope::FrequencySpec;
using ropescope::Id3;

struct RefCase {
  std::string form;   // "subset" / "full"
  std::string label;  // row label in the golden table
  std::string plan;
  std::vector<int> sections;
  std::vector<std::pair<int, Axis>>
      heads;  // (kvHead, axis) to check; one entry (0, axis) otherwise
  std::string name;
};

std::vector<RefCase> refCases() {
  std::vector<RefCase> out;
  for (const char* form : {"subset", "full"}) {
    const std::string f = form;
    out.push_back({f, "vanilla(all pairs)", "vanilla", {}, {{0, Axis::T}}, f + "_vanilla"});
    for (Axis a : {Axis::T, Axis::H, Axis::W}) {
      const std::string c = ropescope::axisName(a);
      out.push_back(
          {f, "MRoPE[16,24,24] " + c, "mrope", {16, 24, 24}, {{0, a}}, f + "_mrope_" + c});
      out.push_back({f,
                     "MRoPE-I[24,20,20] " + c,
                     "interleaved",
                     {24, 20, 20},
                     {{0, a}},
                     f + "_interleaved_" + c});
      out.push_back({f, "VideoRoPE " + c, "videorope", {}, {{0, a}}, f + "_videorope_" + c});
    }
    // Repo default [2,3,3] over 8 KV heads: heads 0-1 t, 2-4 h, 5-7 w; any one gives vanilla.
    out.push_back(
        {f,
         "MHRoPE any axis",
         "multihead",
         {2, 3, 3},
         {{0, Axis::T}, {1, Axis::T}, {2, Axis::H}, {4, Axis::H}, {5, Axis::W}, {7, Axis::W}},
         f + "_multihead_any_axis"});
  }
  return out;
}

Id3 along(Axis a) {
  Id3 d{0, 0, 0};
  d[static_cast<int>(a)] = 1;
  return d;
}

const RefTable* findTable(const std::string& form) {
  for (const auto& t : decayReference())
    if (t.form == form) return &t;
  return nullptr;
}

class DecayReference : public ::testing::TestWithParam<RefCase> {};

TEST_P(DecayReference, CurveMatchesGolden) {
  const RefCase& c = GetParam();
  const RefTable* t = findTable(c.form);
  ASSERT_NE(t, nullptr) << "decay_reference.txt table form=" << c.form << " missing";
  ASSERT_EQ(t->base, "1e+06");
  const RefRow* row = t->find(c.label);
  ASSERT_NE(row, nullptr) << "row '" << c.label << "' missing in form=" << c.form;
  ASSERT_EQ(row->cells.size(), t->r.size());
  for (const auto& [head, axis] : c.heads) {
    SCOPED_TRACE(c.plan + " kvHead " + std::to_string(head) + " axis " + ropescope::axisName(axis));
    FrequencySpec s;
    s.plan = c.plan;
    s.rotary.headDim = t->rotDim;
    s.rotary.base = std::stod(t->base);
    s.sections = c.sections;
    s.kvHeads = 8;
    s.kvHead = head;
    const auto pairs = ropescope::resolvePairs(s);
    EXPECT_EQ(static_cast<int>(ropescope::subsetPairs(pairs, axis).size()), row->n) << "n";
    const DecayForm form = c.form == "subset" ? DecayForm::Subset : DecayForm::Full;
    const int maxR = t->r.back();
    const auto curve = ropescope::decayCurve(pairs, along(axis), maxR, form);
    ASSERT_EQ(static_cast<int>(curve.size()), maxR + 1);
    for (std::size_t i = 0; i < t->r.size(); ++i) {
      const int r = t->r[i];
      EXPECT_TRUE(matches(curve[r], row->cells[i].value)) << "r=" << r;
      EXPECT_TRUE(matches(curve[r] / curve[0], row->cells[i].normalised))
          << "r=" << r << " normalised";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, DecayReference, ::testing::ValuesIn(refCases()),
                         [](const ::testing::TestParamInfo<RefCase>& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(DecayReferenceFile, EveryRowIsChecked) {
  const auto& tables = decayReference();
  ASSERT_EQ(tables.size(), 2u);
  const auto cases = refCases();
  for (const auto& t : tables) {
    EXPECT_EQ(t.r, (std::vector<int>{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096}));
    EXPECT_EQ(t.rows.size(), 11u);
    for (const auto& row : t.rows)
      EXPECT_TRUE(
          std::any_of(cases.begin(), cases.end(),
                      [&](const RefCase& c) { return c.form == t.form && c.label == row.label; }))
          << "unchecked row '" << row.label << "' form=" << t.form;
  }
}

}  // namespace
}  // namespace golden
