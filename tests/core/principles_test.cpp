// The design-principles verdict (principles.h): coherence on hand-worked layouts and against a
// quadratic loop, the frequency shares as closed forms of the plans' maps, the textual prior
// against vanilla RoPE computed here, and the Revisiting paper's rows pinned with the reason
// for each verdict.
#include "ropescope/principles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ropescope/layout.h"
#include "ropescope/position_design.h"
#include "ropescope/principles_report.h"
#include "ropescope/scene_metrics.h"
#include "test_util.h"

namespace ropescope {
namespace {

Scene sceneOf(const std::string& design, const std::string& plan, const std::string& layout) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(layout);
  setDesign(s, design);
  s.frequency.plan = plan;
  s.frequency.sections.clear();
  return s;
}

const AxisSpectrum& axisOf(const FrequencyUse& f, Axis a) {
  for (const AxisSpectrum& s : f.axes)
    if (s.axis == a) return s;
  throw std::logic_error("no such axis");
}

// VideoRoPE on t8,i4x6,t8: text 0..7; the image at off 8 takes t 8, h 8 + r - 1 (7..10),
// w 8 + c - 2 (6..11); the text after starts at off + 1 = 9. So the first text token (32) has
// h 9 <= 10 (row 3's first token, 8 + 3 * 6 = 26); ids 9, 10, 11 are at or below w's 11: three
// overlapping text tokens; interval (9 - 8, 9 - 10, 9 - 11).
TEST(Principles, VideoRopeOverlapsTheTextAfterALargeImage) {
  const PrinciplesVerdict v = principlesVerdict(sceneOf("videorope", "videorope", "t8,i4x6,t8"));
  const Coherence& c = v.coherence;
  EXPECT_EQ(c.verdict, Verdict::Fail);
  ASSERT_TRUE(c.overlap);
  EXPECT_EQ(c.overlap->textToken, 32u);
  EXPECT_EQ(c.overlap->visualToken, 26u);
  EXPECT_EQ(c.overlap->axis, Axis::H);
  EXPECT_EQ(c.overlap->textId, 9.0);
  EXPECT_EQ(c.overlap->visualId, 10.0);
  EXPECT_EQ(c.overlappingText, 3u);
  ASSERT_EQ(c.blocks.size(), 1u);
  ASSERT_TRUE(c.smallestInterval);
  EXPECT_EQ(*c.smallestInterval, (Id3{1.0, -1.0, -2.0}));
  // Largest id 9 + 7 = 16 over 40 tokens.
  EXPECT_DOUBLE_EQ(c.growth, 17.0 / 40.0);
}

// M-RoPE on t8,i4x6,t8: the image takes t 8, h 8..11, w 8..13; the text after starts at
// 8 + max(0, 3, 5) + 1 = 14: interval (6, 3, 1), largest id 21 over 40 tokens.
TEST(Principles, MropeKeepsTheTextAboveTheImage) {
  const PrinciplesVerdict v = principlesVerdict(sceneOf("mrope", "mrope", "t8,i4x6,t8"));
  EXPECT_EQ(v.coherence.verdict, Verdict::Pass);
  EXPECT_FALSE(v.coherence.overlap);
  EXPECT_EQ(v.coherence.overlappingText, 0u);
  EXPECT_EQ(*v.coherence.smallestInterval, (Id3{6.0, 3.0, 1.0}));
  EXPECT_DOUBLE_EQ(v.coherence.growth, 22.0 / 40.0);
}

TEST(Principles, UndefinedWithoutVisualTokensOrTextAfterThem) {
  const PrinciplesVerdict text = principlesVerdict(sceneOf("mrope", "mrope", "t5"));
  EXPECT_EQ(text.coherence.verdict, Verdict::Undefined);
  EXPECT_NE(text.coherence.reason.find("no visual token"), std::string::npos);
  EXPECT_FALSE(text.coherence.smallestInterval);
  const PrinciplesVerdict last = principlesVerdict(sceneOf("mrope", "mrope", "t3,i2x2"));
  EXPECT_EQ(last.coherence.verdict, Verdict::Pass);
  ASSERT_EQ(last.coherence.blocks.size(), 1u);
  EXPECT_FALSE(last.coherence.blocks[0].interval);
  EXPECT_EQ(last.coherence.blocks[0].undefined, "no text token after the block");
  EXPECT_FALSE(last.coherence.smallestInterval);
  // Two pictures in a row: both wait for the same next text token. M-RoPE: text 0, 1; the
  // first 2 x 2 at 2 (h, w up to 3), the second at 4 (up to 5), the text after at 6.
  const PrinciplesVerdict pair = principlesVerdict(sceneOf("mrope", "mrope", "t2,i2x2,i2x2,t2"));
  ASSERT_EQ(pair.coherence.blocks.size(), 2u);
  EXPECT_EQ(*pair.coherence.blocks[0].nextText, 10u);
  EXPECT_EQ(*pair.coherence.blocks[0].interval, (Id3{4.0, 3.0, 3.0}));
  EXPECT_EQ(*pair.coherence.blocks[1].interval, (Id3{2.0, 1.0, 1.0}));
  EXPECT_EQ(*pair.coherence.smallestInterval, (Id3{2.0, 1.0, 1.0}));
  // No text at all: the scene-text check has no value, the text-only layout still does.
  const PrinciplesVerdict image = principlesVerdict(sceneOf("mrope", "mrope", "i4x4"));
  EXPECT_FALSE(image.text.sceneText.idDifference);
  EXPECT_EQ(image.text.sceneText.undefined, "the scene has no text token");
  EXPECT_TRUE(image.text.textOnly.equal());
  EXPECT_EQ(image.text.verdict, Verdict::Pass);
}

// The overlap count against a quadratic loop, for every research design on random layouts.
TEST(Principles, OverlapAgreesWithAQuadraticLoop) {
  std::mt19937 rng(47);
  for (int trial = 0; trial < 12; ++trial) {
    const Layout layout = test::randomLayout(rng);
    for (const char* design : {"hard", "mrope", "mrope-reset", "videorope", "hope", "circle",
                               "v2pe", "mca", "mm-rope", "vrope"}) {
      Scene s = defaultScene();
      s.layout = layout;
      setDesign(s, design);
      const PositionIds ids = effectiveIds(s);
      std::size_t count = 0;
      std::optional<std::size_t> first;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        if (ids.tokens[k].modality != Modality::Text) continue;
        bool hit = false;
        for (std::size_t j = 0; j < k; ++j) {
          const Modality m = ids.tokens[j].modality;
          if (m != Modality::Image && m != Modality::Video) continue;
          for (int a = 0; a < 3; ++a) hit = hit || ids.ids[k][a] <= ids.ids[j][a];
        }
        if (hit) {
          ++count;
          if (!first) first = k;
        }
      }
      const PrinciplesVerdict v = principlesVerdict(s);
      EXPECT_EQ(v.coherence.overlappingText, count) << design << " trial " << trial;
      EXPECT_EQ(v.coherence.overlap.has_value(), first.has_value()) << design;
      if (first) EXPECT_EQ(v.coherence.overlap->textToken, *first) << design;
      EXPECT_EQ(v.coherence.verdict, first ? Verdict::Fail : Verdict::Pass) << design;
    }
  }
}

// log theta_p is linear in p, so an axis's share is (last pair - first pair) / (pairs - 1).
TEST(Principles, SharesAreTheSpanOfTheAxisPairs) {
  // Chunked [16,24,24]: t 0..15, h 16..39, w 40..63.
  const FrequencyUse chunked = principlesVerdict(sceneOf("mrope", "mrope", "t2,i2x2,t2")).frequency;
  EXPECT_NEAR(axisOf(chunked, Axis::T).share, 15.0 / 63.0, 1e-12);
  EXPECT_NEAR(axisOf(chunked, Axis::H).share, 23.0 / 63.0, 1e-12);
  EXPECT_NEAR(axisOf(chunked, Axis::W).share, 23.0 / 63.0, 1e-12);
  EXPECT_EQ(chunked.verdict, Verdict::Fail);
  EXPECT_DOUBLE_EQ(*axisOf(chunked, Axis::T).highest, 1.0);  // time on the highest band
  // Interleaved [24,20,20]: h 1, 4, ..., 58; w 2, ..., 59; t 0 ... 63.
  const FrequencyUse inter =
      principlesVerdict(sceneOf("mrope-reset", "interleaved", "t2,i2x2,t2")).frequency;
  EXPECT_NEAR(axisOf(inter, Axis::T).share, 1.0, 1e-12);
  EXPECT_NEAR(axisOf(inter, Axis::H).share, 57.0 / 63.0, 1e-12);
  EXPECT_NEAR(axisOf(inter, Axis::W).share, 57.0 / 63.0, 1e-12);
  EXPECT_EQ(inter.verdict, Verdict::Pass);
  // VideoRoPE [16,24,24]: h even 0..46, w odd 1..47, t the lowest band 48..63.
  const FrequencyUse video =
      principlesVerdict(sceneOf("videorope", "videorope", "t2,i2x2,t2")).frequency;
  EXPECT_NEAR(axisOf(video, Axis::T).share, 15.0 / 63.0, 1e-12);
  EXPECT_NEAR(axisOf(video, Axis::H).share, 46.0 / 63.0, 1e-12);
  EXPECT_NEAR(axisOf(video, Axis::W).share, 46.0 / 63.0, 1e-12);
  // HoPE: time has frequency 0 (16 NoPE pairs), no rotating pair on t.
  const FrequencyUse hope = principlesVerdict(sceneOf("hope", "hope", "t2,i2x2,t2")).frequency;
  EXPECT_EQ(hope.nopePairs, 16);
  EXPECT_EQ(axisOf(hope, Axis::T).rotating, 0);
  EXPECT_FALSE(axisOf(hope, Axis::T).lowest);
  EXPECT_EQ(hope.verdict, Verdict::Fail);
  // MHRoPE: 8 KV heads [2,3,3], each axis the whole spectrum in its heads.
  const FrequencyUse heads =
      principlesVerdict(sceneOf("mrope-reset", "multihead", "t2,i2x2,t2")).frequency;
  EXPECT_EQ(heads.heads, 8);
  EXPECT_EQ(axisOf(heads, Axis::T).pairs, 2 * 64);
  EXPECT_EQ(axisOf(heads, Axis::H).pairs, 3 * 64);
  EXPECT_NEAR(axisOf(heads, Axis::W).share, 1.0, 1e-12);
  EXPECT_EQ(heads.verdict, Verdict::Pass);
  // A one-index design turns every pair with its index, whatever the plan's axes.
  const FrequencyUse line = principlesVerdict(sceneOf("hard", "mrope", "t2,i2x2,t2")).frequency;
  ASSERT_TRUE(line.oneIndexShare);
  EXPECT_NEAR(*line.oneIndexShare, 1.0, 1e-12);
  EXPECT_EQ(line.verdict, Verdict::Pass);
}

// HoPE's NoPE band: on text alone pair p (48..63) stays put where vanilla turns theta_p * i.
TEST(Principles, HopeLosesTheTextPriorByItsNopeBand) {
  const Scene s = sceneOf("hope", "hope", "t3,i2x2,t4");
  const PrinciplesVerdict v = principlesVerdict(s);
  EXPECT_EQ(v.text.verdict, Verdict::Fail);
  double chord = 0.0;
  for (int i = 0; i < kTextPriorTokens; ++i)
    for (int p = 48; p < 64; ++p)
      chord = std::max(chord, std::abs(2.0 * std::sin(0.5 * pairFrequency(1e6, p, 128) * i)));
  ASSERT_TRUE(v.text.textOnly.rotaryDifference);
  EXPECT_NEAR(*v.text.textOnly.rotaryDifference, chord, 1e-12);
  EXPECT_EQ(*v.text.textOnly.idDifference, 0.0);
  EXPECT_EQ(*v.text.textOnly.firstToken, 1u);
  // The scene's own text, 7 tokens: the same rule over i = 0..6.
  double sceneChord = 0.0;
  for (int i = 0; i < 7; ++i)
    for (int p = 48; p < 64; ++p)
      sceneChord =
          std::max(sceneChord, std::abs(2.0 * std::sin(0.5 * pairFrequency(1e6, p, 128) * i)));
  EXPECT_NEAR(*v.text.sceneText.rotaryDifference, sceneChord, 1e-12);
  // M-RoPE puts text at (p, p, p) and every pair at vanilla's frequency: exactly equal.
  const PrinciplesVerdict m = principlesVerdict(sceneOf("mrope", "mrope", "t3,i2x2,t4"));
  EXPECT_EQ(m.text.verdict, Verdict::Pass);
  EXPECT_EQ(*m.text.textOnly.rotaryDifference, 0.0);
  EXPECT_TRUE(m.text.sceneText.equal());
}

// The Revisiting paper's rows, as ropescope computes them on kRevisitingLayout. The paper's own
// Table 1 could not be read here (docs/designs.md, "Design principles"); each verdict below is
// the definition's consequence:
// - coherence fails for VideoRoPE and HoPE: their diagonal layout centres h and w on t, so the
//   4 x 6 image's h and w reach past the text id that follows (overlap); every other design
//   starts the next text above the block's largest id.
// - frequency use fails where an axis spans < 0.8 of the log-frequency range: chunked M-RoPE
//   (MRoPE, CircleRoPE and Omni-RoPE use it; t 0.24), VideoRoPE (t 0.24 on the lowest band,
//   h/w 0.73), HoPE (t does not rotate); interleaved (IL-RoPE, MRoPE-I: >= 0.9) and per-head
//   (MHRoPE: 1) pass, and vanilla's one index turns with all pairs.
// - the textual prior fails for HoPE alone: its NoPE temporal band leaves text pairs unturned.
//   IL-RoPE and Omni-RoPE as ported here (the Revisiting repository's port, text at (p, p, p))
//   keep it; the claim that they break it could not be checked against the paper.
TEST(Principles, RevisitingRowsArePinned) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4");  // no visual token: the rows use kRevisitingLayout
  const std::vector<PrinciplesVerdict> rows = revisitingVerdicts(s);
  struct Expected {
    const char* label;
    Verdict coherence, frequency, text;
  };
  const Verdict P = Verdict::Pass, F = Verdict::Fail;
  const std::vector<Expected> expected = {
      {"Vanilla RoPE", P, P, P}, {"MRoPE", P, F, P},      {"VideoRoPE", F, F, P},
      {"HoPE", F, F, F},         {"CircleRoPE", P, F, P}, {"IL-RoPE", P, P, P},
      {"Omni-RoPE", P, F, P},    {"MRoPE-I", P, P, P},    {"MHRoPE", P, P, P},
  };
  ASSERT_EQ(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].label, expected[i].label);
    EXPECT_EQ(rows[i].coherence.verdict, expected[i].coherence) << rows[i].label;
    EXPECT_EQ(rows[i].frequency.verdict, expected[i].frequency) << rows[i].label;
    EXPECT_EQ(rows[i].text.verdict, expected[i].text) << rows[i].label;
  }
}

TEST(Principles, EveryDesignIsJudged) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,i3x3,t4");
  const std::vector<PrinciplesVerdict> rows = everyDesignVerdict(s);
  ASSERT_EQ(rows.size(), allDesigns().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].design, allDesigns()[i]->name());
    EXPECT_NE(rows[i].coherence.verdict, Verdict::Undefined) << rows[i].design;
  }
}

// The Principles tab's grid: the scene's row first, then every design; each verdict line a mark
// and principlesCells' number, n/a with the reason where the verdict is undefined.
TEST(PrinciplesGrid, VerdictLinesCarryTheMarkAndTheNumber) {
  const Scene s = sceneOf("mrope", "mrope", "t6,i4x6,t6");
  const std::vector<PrinciplesVerdict> rows = principlesPanelRows(s);
  ASSERT_EQ(rows.size(), everyDesignVerdict(s).size() + 1);
  EXPECT_EQ(rows.front().label, "scene: mrope, mrope");
  const ReportGrid g = principlesGrid(rows);
  ASSERT_EQ(g.columns.size(), rows.size());
  ASSERT_EQ(g.lines[0].name, "position coherence");
  EXPECT_TRUE(g.lines[0].verdict);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const GridCell& c = g.lines[0].cells[i];
    EXPECT_EQ(c.verdict, verdictName(rows[i].coherence.verdict));
    if (rows[i].coherence.verdict == Verdict::Undefined) {
      EXPECT_EQ(c.text, "n/a");
      EXPECT_EQ(c.undefined, rows[i].coherence.reason);
    }
  }
  EXPECT_EQ(g.lines[0].cells[0].text, principlesCells(rows[0])[0]);
  // Text alone: no modality interval anywhere, each n/a with core's reason.
  const std::vector<PrinciplesVerdict> text = principlesPanelRows(sceneOf("mrope", "mrope", "t9"));
  const ReportGrid t = principlesGrid(text);
  ASSERT_EQ(t.lines[2].name, "modality interval");
  for (std::size_t i = 0; i < text.size(); ++i) {
    EXPECT_EQ(t.lines[2].cells[i].text, "n/a");
    EXPECT_EQ(t.lines[2].cells[i].undefined, text[i].coherence.intervalUndefined);
    EXPECT_FALSE(t.lines[2].cells[i].undefined.empty());
  }
}

TEST(PrinciplesGrid, EveryDesignStopsWhenAskedBetweenDesigns) {
  const Scene s = sceneOf("mrope", "mrope", "t6,i4x6,t6");
  int asked = 0;
  Progress stop;
  stop.cancel = [&] { return ++asked > 2; };  // two designs judged, then stop
  EXPECT_THROW(principlesPanelRows(s, stop), Cancelled);
  EXPECT_EQ(asked, 3);
  std::vector<double> told;
  Progress report;
  report.report = [&](double f) { told.push_back(f); };
  const std::vector<PrinciplesVerdict> rows = everyDesignVerdict(s, report);
  ASSERT_EQ(told.size(), rows.size());
  EXPECT_EQ(told.front(), 0.0);
  EXPECT_LT(told.back(), 1.0);
}

}  // namespace
}  // namespace ropescope
