// Golden position ids: every design's ids and rope_delta on cases A, A2, B, C, D, E of
// data/ids_reference.txt (docs/reference-data.md#ids_referencetxt), compared cell by cell.
//
// Golden variants deliberately NOT checked (no such design in the core API), and listed in
// kSkippedVariants so that a new, unlisted variant in the file fails the coverage test:
//   * "MRoPE Qwen2.5-VL fps=4, old HF int-cast bug ..."  -- a historical Hugging Face bug (spg cast
//                                                           to int); the core implements the fixed
//                                                           rule tau(k) = floor(k * 2/fps * tps).

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "golden_checks.h"
#include "golden_reader.h"
#include "ropescope/layout.h"
#include "ropescope/position_design.h"

namespace golden {
namespace {

// The LLM layout of each case, worked out from its "tokens:" line: <vs>, <ve> and timestamps are
// text tokens; a Qwen3-VL frame block (cases C, D, E) is a 1-frame video block.
struct CaseLayout {
  const char* name;
  const char* spec;
};
const CaseLayout kCases[] = {
    {"A", "t3,i4x6,t2"},
    {"A2", "t3,i2x3,t2"},
    {"B", "t3,v2x2x2,t2"},
    {"C", "t4,v1x2x2,t3,v1x2x2,t2"},
    {"D", "t6,i2x2,t5,v1x2x2,t4,v1x2x2,t2"},
    {"E", "t5,i2x2,t3,v1x2x2,t2"},
};

struct VariantMapping {
  const char* id;     // test-name suffix
  const char* label;  // golden variant label, exactly as printed
  const char* design;
  Params params;
  bool floatIds;         // the design emits fractional ids: an integer-printed cell may be rounded
  const char* onlyCase;  // nullptr: present in every case
};

const Params kCircleRepoPort = {{"alpha", 0.5}, {"radius_mode", 0}, {"radius", 10},
                                {"centre", 1},  {"dff", 1},         {"no_circle", 0}};
const Params kPureCircle = {{"alpha", 0.5}, {"radius_mode", 0}, {"radius", 10},
                            {"centre", 1},  {"dff", 0},         {"no_circle", 0}};

const std::vector<VariantMapping>& mappings() {
  static const std::vector<VariantMapping> m = {
      {"vanilla_hard", "vanilla 1D RoPE", "hard", {}, false, nullptr},
      {"qwen2vl_mrope",
       "MRoPE Qwen2-VL (t=k)",
       "mrope",
       {{"fps", 2}, {"tokens_per_second", 1}},
       false,
       nullptr},
      {"qwen25vl_fps2",
       "MRoPE Qwen2.5-VL fps=2 (spg=1.0,tps=2 -> t=floor(2k))",
       "mrope",
       {{"fps", 2}, {"tokens_per_second", 2}},
       false,
       "B"},
      {"qwen25vl_fps2_defaults",
       "MRoPE Qwen2.5-VL fps=2 (spg=1.0,tps=2 -> t=floor(2k))",
       "mrope",
       {},
       false,
       "B"},
      {"qwen25vl_fps4_fixed",
       "MRoPE Qwen2.5-VL fps=4 (spg=0.5,tps=2 -> t=floor(k)) [Qwen/fixed-HF]",
       "mrope",
       {{"fps", 4}, {"tokens_per_second", 2}},
       false,
       "B"},
      {"qwen3vl_no_reset",
       "MRoPE-I / Qwen3-VL, no reset (stride 1)",
       "mrope",
       {{"fps", 2}, {"tokens_per_second", 1}},
       false,
       nullptr},
      {"spatial_reset",
       "spatial-reset (MRoPE-I & MHRoPE design, stride 1)",
       "mrope-reset",
       {{"temporal_stride", 1}},
       false,
       nullptr},
      {"spatial_reset_defaults",
       "spatial-reset (MRoPE-I & MHRoPE design, stride 1)",
       "mrope-reset",
       {},
       false,
       nullptr},
      {"videorope", "VideoRoPE (delta=2)", "videorope", {{"temporal_stride", 2}}, false, nullptr},
      {"videorope_defaults", "VideoRoPE (delta=2)", "videorope", {}, false, nullptr},
      {"hope",
       "HoPE (scale=1.0; training draws per block)",
       "hope",
       {{"temporal_scale", 1}},
       false,
       nullptr},
      {"hope_defaults", "HoPE (scale=1.0; training draws per block)", "hope", {}, false, nullptr},
      {"v2pe", "V2PE repo port (visual_stride=16)", "v2pe", {{"visual_stride", 16}}, true, nullptr},
      {"v2pe_defaults", "V2PE repo port (visual_stride=16)", "v2pe", {}, true, nullptr},
      {"omnirope_ilrope",
       "OmniRoPE / IL-RoPE repo port (stride 1)",
       "mrope-reset",
       {{"temporal_stride", 1}},
       false,
       nullptr},
      {"omnirope", "OmniRoPE / IL-RoPE repo port (stride 1)", "omnirope", {}, false, nullptr},
      {"ilrope", "OmniRoPE / IL-RoPE repo port (stride 1)", "ilrope", {}, false, nullptr},
      {"mm_rope",
       "MM-RoPE repo port (scale 4,8,8)",
       "mm-rope",
       {{"scale_t", 4}, {"scale_h", 8}, {"scale_w", 8}, {"temporal_stride", 1}},
       false,
       nullptr},
      {"mm_rope_defaults", "MM-RoPE repo port (scale 4,8,8)", "mm-rope", {}, false, nullptr},
      {"circle_repo_port_dff1", "CircleRoPE repo port (origin, dff=1, R=10, a=0.5)", "circle",
       kCircleRepoPort, true, nullptr},
      {"circle_pure",
       "CircleRoPE repo port, pure circle (origin, dff=0, R=10, a=0.5; illustrative)", "circle",
       kPureCircle, true, nullptr},
      {"circle_pure_defaults",
       "CircleRoPE repo port, pure circle (origin, dff=0, R=10, a=0.5; illustrative)",
       "circle",
       {},
       true,
       nullptr},
  };
  return m;
}

const std::set<std::string> kSkippedVariants = {
    "MRoPE Qwen2.5-VL fps=4, old HF int-cast bug (t=k*int(0.5)*2=0)",
};

// Non-integers in ids_reference.txt are rounded to 4 decimals; an integer-printed cell of a
// float design may itself be a rounded float (e.g. 7.99999999 prints as "8").
constexpr double kRoundedIntegerSlack = 0.5e-4 + 1e-12;

ropescope::Modality goldenModality(const std::string& token) {
  if (token == "img") return ropescope::Modality::Image;
  if (token == "vid") return ropescope::Modality::Video;
  return ropescope::Modality::Text;
}

TEST(IdsReferenceFile, ParsesEveryCaseConsistently) {
  const IdsReference& ref = idsReference();
  for (const auto& c : kCases) {
    const IdsCase* gc = ref.findCase(c.name);
    ASSERT_NE(gc, nullptr) << "golden case " << c.name << " missing from ids_reference.txt";
    EXPECT_EQ(static_cast<int>(gc->tokens.size()), gc->declaredTokens) << "case " << c.name;
    EXPECT_GE(gc->variants.size(), 10u) << "case " << c.name;
    for (const auto& v : gc->variants) {
      SCOPED_TRACE(v.where);
      for (int a = 0; a < 3; ++a)
        EXPECT_EQ(static_cast<int>(v.rows[a].size()), gc->declaredTokens) << "row " << a;
      // The file's own invariant: next decode id = rope_delta + sequence length.
      EXPECT_NEAR(v.ropeDelta.value + gc->declaredTokens, v.nextDecodeId.value, 2e-4);
    }
  }
  EXPECT_EQ(ref.cases.size(), std::size(kCases)) << "ids_reference.txt has unmapped cases";
}

TEST(IdsReferenceFile, EveryVariantIsCheckedOrListedAsSkipped) {
  const IdsReference& ref = idsReference();
  ASSERT_FALSE(ref.cases.empty());
  for (const auto& gc : ref.cases) {
    for (const auto& v : gc.variants) {
      const bool mapped = std::any_of(mappings().begin(), mappings().end(),
                                      [&](const VariantMapping& m) { return v.label == m.label; });
      EXPECT_TRUE(mapped || kSkippedVariants.count(v.label))
          << "case " << gc.name << ": golden variant '" << v.label << "' is neither tested nor "
          << "listed as skipped";
    }
  }
}

TEST(IdsReferenceFile, CaseLayoutsMatchTokenLines) {
  const IdsReference& ref = idsReference();
  for (const auto& c : kCases) {
    SCOPED_TRACE(std::string("case ") + c.name + " layout " + c.spec);
    const IdsCase* gc = ref.findCase(c.name);
    ASSERT_NE(gc, nullptr);
    const ropescope::Layout layout = ropescope::parseLayoutSpec(c.spec);
    std::vector<ropescope::Modality> kinds;
    for (const auto& s : layout.segments) {
      const auto m = s.kind == ropescope::SegmentKind::Text    ? ropescope::Modality::Text
                     : s.kind == ropescope::SegmentKind::Image ? ropescope::Modality::Image
                                                               : ropescope::Modality::Video;
      kinds.insert(kinds.end(), s.tokenCount(), m);
    }
    ASSERT_EQ(kinds.size(), gc->tokens.size());
    EXPECT_EQ(layout.tokenCount(), gc->tokens.size());
    for (std::size_t i = 0; i < kinds.size(); ++i)
      EXPECT_EQ(kinds[i], goldenModality(gc->tokens[i])) << "token " << i << " " << gc->tokens[i];
  }
}

struct VariantCase {
  const CaseLayout* layout;
  const VariantMapping* mapping;
};

std::vector<VariantCase> allVariantCases() {
  std::vector<VariantCase> out;
  for (const auto& c : kCases)
    for (const auto& m : mappings())
      if (!m.onlyCase || std::string(m.onlyCase) == c.name) out.push_back({&c, &m});
  return out;
}

class IdsGolden : public ::testing::TestWithParam<VariantCase> {};

TEST_P(IdsGolden, IdsAndRopeDeltaMatchGolden) {
  const CaseLayout& c = *GetParam().layout;
  const VariantMapping& m = *GetParam().mapping;
  SCOPED_TRACE(describe(m.design, c.spec, m.params));
  const IdsCase* gc = idsReference().findCase(c.name);
  ASSERT_NE(gc, nullptr) << "golden case " << c.name << " missing";
  const IdsVariant* gv = gc->find(m.label);
  ASSERT_NE(gv, nullptr) << "golden variant '" << m.label << "' missing in case " << c.name;
  SCOPED_TRACE(gv->where);

  const ropescope::PositionIds ids = computeIds(m.design, c.spec, m.params);
  ASSERT_EQ(ids.size(), gc->tokens.size());
  ASSERT_EQ(ids.tokens.size(), gc->tokens.size());

  const double slack = m.floatIds ? kRoundedIntegerSlack : 0.0;
  int bad = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids.tokens[i].modality != goldenModality(gc->tokens[i])) {
      ++bad;
      report << "\n  token " << i << ": modality "
             << ropescope::modalityName(ids.tokens[i].modality) << ", golden token '"
             << gc->tokens[i] << "'";
    }
    for (int a = 0; a < 3; ++a) {
      const auto r = matches(ids.ids[i][a], gv->rows[a][i], slack);
      if (!r && ++bad <= 12)
        report << "\n  token " << i << " axis "
               << "thw"[a] << ": " << r.message();
    }
  }
  EXPECT_EQ(bad, 0) << bad << " mismatching cells (first shown):" << report.str();
  EXPECT_TRUE(matches(ids.ropeDelta, gv->ropeDelta, slack)) << "rope_delta";
}

INSTANTIATE_TEST_SUITE_P(Golden, IdsGolden, ::testing::ValuesIn(allVariantCases()),
                         [](const ::testing::TestParamInfo<VariantCase>& info) {
                           return std::string("Case") + info.param.layout->name + "_" +
                                  info.param.mapping->id;
                         });

}  // namespace
}  // namespace golden
