// Positional read-outs (attention_readouts.h): every number against a brute-force causal softmax
// computed here from the double reference logits and summed by hand, the closed case of equal
// ids (uniform weights), the n/a cases and their reasons, and the reports' formats.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "../test_util.h"
#include "ropescope/attention.h"
#include "ropescope/attention_readouts.h"
#include "ropescope/attention_readouts_report.h"
#include "ropescope/errors.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {
namespace {

Scene aroScene(const char* layout) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(layout);
  s.design = "mrope";
  s.frequency.plan = "mrope";
  s.frequency.sections = {};
  s.frequency.rotary.headDim = 16;
  s.frequency.rotary.rotaryDim = 0;
  s.frequency.rotary.base = 10000.0;
  return s;
}

QkSourceSpec aroRandom(int heads, std::uint64_t seed) {
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.heads = heads;
  src.seed = seed;
  return src;
}

// [N x N] causal softmax of head h, in long double, from the reference logits: row r over keys
// 0..r, exp(l - max) / sum.
std::vector<long double> aroBruteSoftmax(const AttentionProblem& problem, int h) {
  const std::size_t n = problem.qk.tokens;
  const std::vector<double> logits = referenceAttention(problem, h, AttentionValue::Logits);
  std::vector<long double> p(n * n, 0.0L);
  for (std::size_t r = 0; r < n; ++r) {
    long double m = -INFINITY, sum = 0.0L;
    for (std::size_t k = 0; k <= r; ++k) m = std::max<long double>(m, logits[r * n + k]);
    for (std::size_t k = 0; k <= r; ++k) sum += std::exp((long double)logits[r * n + k] - m);
    for (std::size_t k = 0; k <= r; ++k)
      p[r * n + k] = std::exp((long double)logits[r * n + k] - m) / sum;
  }
  return p;
}

bool aroIsVisual(const TokenInfo& t) {
  return t.modality == Modality::Image || t.modality == Modality::Video;
}

// t4,i3x3,t6 and a two-picture layout: the fading curve and each picture's numbers recomputed
// from the full softmax matrices, one sum at a time.
TEST(AttentionReadouts, EveryNumberMatchesABruteForceSoftmax) {
  for (const char* layout : {"t4,i3x3,t6", "t2,i2x3,t3,i3x2,t4"}) {
    SCOPED_TRACE(layout);
    const Scene s = aroScene(layout);
    const PositionIds ids = effectiveIds(s);
    const AttentionProblem problem = makeAttentionProblem(s, aroRandom(2, 7), true);
    const AttentionReadouts r = attentionReadouts(problem, ids, 1);
    const std::size_t n = ids.size();
    ASSERT_EQ(r.tokens, n);
    ASSERT_EQ(r.heads, 2);
    std::vector<std::vector<long double>> p = {aroBruteSoftmax(problem, 0),
                                               aroBruteSoftmax(problem, 1)};
    std::size_t lastVisual = 0;
    for (std::size_t t = 0; t < n; ++t)
      if (aroIsVisual(ids.tokens[t])) lastVisual = t;

    // Fading: text tokens after the last visual one, visual weight summed by hand.
    std::vector<std::size_t> want;
    for (std::size_t t = lastVisual + 1; t < n; ++t)
      if (ids.tokens[t].modality == Modality::Text) want.push_back(t);
    ASSERT_EQ(r.fadingTokens, want);
    ASSERT_TRUE(r.fadingUndefined.empty());
    for (std::size_t i = 0; i < want.size(); ++i) {
      long double mean = 0.0L;
      for (int h = 0; h < 2; ++h) {
        long double v = 0.0L;
        for (std::size_t k = 0; k < want[i]; ++k)
          if (aroIsVisual(ids.tokens[k])) v += p[h][want[i] * n + k];
        EXPECT_NEAR(r.fadingHead[h][i], double(v), 1e-5);
        mean += v / 2;
      }
      EXPECT_NEAR(r.fading[i], double(mean), 1e-5);
    }

    // Pictures: A(k) = mean over heads and text queries after the picture of P[r, k].
    ASSERT_EQ(r.pictures.size(), std::string(layout).find("i3x2") != std::string::npos ? 2u : 1u);
    for (const PictureReadout& pic : r.pictures) {
      SCOPED_TRACE(pic.name);
      std::vector<std::size_t> cells, queries;
      for (std::size_t t = 0; t < n; ++t) {
        if (ids.tokens[t].segment == pic.segment) cells.push_back(t);
        if (t > pic.lastToken && ids.tokens[t].modality == Modality::Text) queries.push_back(t);
      }
      ASSERT_EQ(cells.front(), pic.firstToken);
      ASSERT_EQ(cells.back(), pic.lastToken);
      ASSERT_EQ(pic.queries, queries.size());
      std::vector<long double> a(cells.size(), 0.0L);
      for (int h = 0; h < 2; ++h)
        for (std::size_t q : queries)
          for (std::size_t j = 0; j < cells.size(); ++j)
            a[j] += p[h][q * n + cells[j]] / (2.0L * queries.size());
      long double total = 0.0L, tl = 0.0L, top = 0.0L, left = 0.0L, border = 0.0L, rowM = 0.0L,
                  colM = 0.0L;
      std::vector<long double> rowShare(std::size_t(pic.rows), 0.0L);
      for (std::size_t j = 0; j < cells.size(); ++j) total += a[j];
      for (std::size_t j = 0; j < cells.size(); ++j) {
        const TokenInfo& i = ids.tokens[cells[j]];
        const long double w = a[j] / total;
        if (i.row == 0 && i.col == 0) tl += w;
        if (i.row == 0) top += w;
        if (i.col == 0) left += w;
        if (i.row == 0 || i.col == 0 || i.row == pic.rows - 1 || i.col == pic.cols - 1) border += w;
        rowShare[std::size_t(i.row)] += w;
        rowM += w * i.row;
        colM += w * i.col;
      }
      ASSERT_TRUE(pic.undefined.empty()) << pic.undefined;
      EXPECT_NEAR(pic.mass, double(total), 1e-6);
      EXPECT_NEAR(pic.topLeft, double(tl), 1e-5);
      EXPECT_NEAR(pic.topRow, double(top), 1e-5);
      EXPECT_NEAR(pic.leftColumn, double(left), 1e-5);
      EXPECT_NEAR(pic.border, double(border), 1e-5);
      ASSERT_TRUE(pic.centreRow && pic.centreCol && pic.rowSlope);
      EXPECT_NEAR(*pic.centreRow, double(rowM / (pic.rows - 1)), 1e-5);
      EXPECT_NEAR(*pic.centreCol, double(colM / (pic.cols - 1)), 1e-5);
      ASSERT_EQ(pic.rowShare.size(), rowShare.size());
      for (std::size_t y = 0; y < rowShare.size(); ++y)
        EXPECT_NEAR(pic.rowShare[y], double(rowShare[y]), 1e-5);
      // Least squares over x = 0..R-1 written out: (R sum xy - sum x sum y) / (R sum x^2 -
      // (sum x)^2).
      long double sx = 0, sy = 0, sxy = 0, sxx = 0;
      for (std::size_t y = 0; y < rowShare.size(); ++y) {
        sx += y;
        sy += rowShare[y];
        sxy += y * rowShare[y];
        sxx += y * y;
      }
      const long double rr = rowShare.size();
      EXPECT_NEAR(*pic.rowSlope, double((rr * sxy - sx * sy) / (rr * sxx - sx * sx)), 1e-5);
      if (pic.rows == 3)  // the closed form of three points: (y2 - y0) / 2
        EXPECT_NEAR(*pic.rowSlope, double((rowShare[2] - rowShare[0]) / 2), 1e-5);
    }
  }
}

// Identical q and k and every id equal: each logit is the same, so each row's weights are
// uniform over the keys it sees, and the visual share at query j is (visual tokens before j) /
// (j + 1) exactly; the shares of a picture are its cell counts over its tokens.
TEST(AttentionReadouts, EqualIdsGiveUniformWeights) {
  const Scene s = aroScene("t4,i3x3,t6,v2x2x3,t5");
  const PositionIds ids = effectiveIds(s);
  const std::size_t n = ids.size();
  const std::vector<Id3> zero(n, Id3{0.0, 0.0, 0.0});
  const AttentionProblem problem =
      makeAttentionProblem(identicalQk(3, n, 16), zero, resolvePairs(s.frequency), true);
  const AttentionReadouts r = attentionReadouts(problem, ids, 2);
  ASSERT_TRUE(r.fadingUndefined.empty());
  ASSERT_EQ(r.fadingTokens.size(), 5u);
  for (std::size_t i = 0; i < r.fadingTokens.size(); ++i) {
    const std::size_t j = r.fadingTokens[i];
    std::size_t before = 0;
    for (std::size_t k = 0; k < j; ++k) before += aroIsVisual(ids.tokens[k]);
    EXPECT_EQ(before, 9u + 12u);
    const double want = double(before) / double(j + 1);
    EXPECT_NEAR(r.fading[i], want, 1e-6) << "query " << j;
    EXPECT_DOUBLE_EQ(r.fadingUniform[i], want);
    for (int h = 0; h < 3; ++h) EXPECT_NEAR(r.fadingHead[h][i], want, 1e-6);
  }
  ASSERT_EQ(r.pictures.size(), 2u);
  const PictureReadout& img = r.pictures[0];
  EXPECT_EQ(img.rows, 3);
  EXPECT_EQ(img.cols, 3);
  EXPECT_EQ(img.queries, 11u);  // t6 and t5
  EXPECT_NEAR(img.topLeft, 1.0 / 9, 1e-6);
  EXPECT_NEAR(img.topRow, 1.0 / 3, 1e-6);
  EXPECT_NEAR(img.leftColumn, 1.0 / 3, 1e-6);
  EXPECT_NEAR(img.border, 8.0 / 9, 1e-6);
  EXPECT_DOUBLE_EQ(img.uniformBorder, 8.0 / 9);
  EXPECT_NEAR(*img.centreRow, 0.5, 1e-6);
  EXPECT_NEAR(*img.centreCol, 0.5, 1e-6);
  EXPECT_NEAR(*img.rowSlope, 0.0, 1e-6);
  for (double v : img.rowShare) EXPECT_NEAR(v, 1.0 / 3, 1e-6);
  // The mean over the 11 queries of 9 / (j + 1), over 9 cells: sum of 1 / (j + 1) / 11.
  double mass = 0.0;
  for (std::size_t t = img.lastToken + 1; t < n; ++t)
    if (ids.tokens[t].modality == Modality::Text) mass += 9.0 / double(t + 1) / 11.0;
  EXPECT_NEAR(img.mass, mass, 1e-6);
  // The video: 2 frames of 2 x 3; its top-left cell is one per frame.
  const PictureReadout& vid = r.pictures[1];
  EXPECT_EQ(vid.modality, Modality::Video);
  EXPECT_EQ(vid.frames, 2);
  EXPECT_EQ(vid.rows, 2);
  EXPECT_EQ(vid.cols, 3);
  EXPECT_NEAR(vid.topLeft, 2.0 / 12, 1e-6);
  EXPECT_NEAR(vid.topRow, 0.5, 1e-6);
  EXPECT_NEAR(vid.border, 1.0, 1e-6);
  EXPECT_NEAR(*vid.rowSlope, 0.0, 1e-6);
  EXPECT_NE(attentionReadoutsReport(s, {}, r, ReadoutsFormat::Text)
                .find("picture 2 (video 2 frames of 2x3, tokens "),
            std::string::npos);
}

TEST(AttentionReadouts, UndefinedValuesSayWhy) {
  {
    const Scene s = aroScene("t8");
    const AttentionReadouts r = sceneAttentionReadouts(s, QkSourceSpec{}, 1);
    EXPECT_EQ(r.fadingUndefined, "the layout has no picture or video");
    EXPECT_EQ(r.picturesUndefined, "the layout has no picture or video");
    EXPECT_TRUE(r.fading.empty());
    const std::string text = attentionReadoutsReport(s, {}, r, ReadoutsFormat::Text);
    EXPECT_NE(text.find("n/a (the layout has no picture or video)"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(attentionReadoutsReport(s, {}, r, ReadoutsFormat::Json));
    EXPECT_TRUE(j["fading"]["visual_share"].is_null());
    EXPECT_EQ(j["pictures_undefined"], "the layout has no picture or video");
  }
  {
    // Nothing after the last picture: no curve; picture 1 has no text after it either.
    const Scene s = aroScene("t4,i2x2");
    const AttentionReadouts r = sceneAttentionReadouts(s, QkSourceSpec{}, 1);
    EXPECT_EQ(r.fadingUndefined, "no text token follows the last picture");
    ASSERT_EQ(r.pictures.size(), 1u);
    EXPECT_EQ(r.pictures[0].undefined, "no text token follows it");
    EXPECT_FALSE(r.pictures[0].centreRow.has_value());
    const std::string text = attentionReadoutsReport(s, {}, r, ReadoutsFormat::Text);
    EXPECT_NE(text.find("n/a (no text token follows the last picture)"), std::string::npos);
    EXPECT_NE(text.find(": n/a (no text token follows it)"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(attentionReadoutsReport(s, {}, r, ReadoutsFormat::Json));
    EXPECT_TRUE(j["pictures"][0]["top_left"].is_null());
    EXPECT_TRUE(j["pictures"][0]["mass"].is_null());
    EXPECT_EQ(j["pictures"][0]["undefined"], "no text token follows it");
    // CSV: the header only, no row of zeros.
    const std::string csv = attentionReadoutsReport(s, {}, r, ReadoutsFormat::Csv);
    EXPECT_EQ(csv, "text_token,token,visual_share,uniform,head_0\n");
  }
  {
    // One row: the row centre and the row trend are n/a, the column centre is defined.
    const Scene s = aroScene("t2,i1x4,t3");
    const AttentionReadouts r = sceneAttentionReadouts(s, QkSourceSpec{}, 1);
    ASSERT_EQ(r.pictures.size(), 1u);
    const PictureReadout& p = r.pictures[0];
    EXPECT_TRUE(p.undefined.empty());
    EXPECT_FALSE(p.centreRow.has_value());
    EXPECT_FALSE(p.rowSlope.has_value());
    ASSERT_TRUE(p.centreCol.has_value());
    EXPECT_NEAR(p.topRow, 1.0, 1e-6);
    const std::string text = attentionReadoutsReport(s, {}, r, ReadoutsFormat::Text);
    EXPECT_NE(text.find("row trend: n/a (the picture has one row)"), std::string::npos) << text;
    EXPECT_NE(text.find("centre of mass: row n/a"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(attentionReadoutsReport(s, {}, r, ReadoutsFormat::Json));
    EXPECT_TRUE(j["pictures"][0]["row_slope"].is_null());
    EXPECT_TRUE(j["pictures"][0]["centre_col"].is_number());
  }
}

TEST(AttentionReadouts, ReportsHoldTheCurveAndRefuseBadInput) {
  const Scene s = aroScene("t4,i3x3,t6");
  const QkSourceSpec src = aroRandom(2, 3);
  const AttentionReadouts r = sceneAttentionReadouts(s, src, 1);
  const std::string csv = attentionReadoutsReport(s, src, r, ReadoutsFormat::Csv);
  EXPECT_EQ(csv.rfind("text_token,token,visual_share,uniform,head_0,head_1\n", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);  // header + 6 text tokens
  const auto j = nlohmann::json::parse(attentionReadoutsReport(s, src, r, ReadoutsFormat::Json));
  EXPECT_EQ(j["qk"], "random");
  EXPECT_EQ(j["fading"]["tokens"].size(), 6u);
  EXPECT_EQ(j["fading"]["heads"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["fading"]["visual_share"][0].get<double>(), r.fading[0]);
  EXPECT_EQ(j["pictures"][0]["rows"], 3);
  const std::string text = attentionReadoutsReport(s, src, r, ReadoutsFormat::Text);
  EXPECT_NE(text.find("picture 1 (image 3x3, tokens 4..12, 6 text queries)"), std::string::npos)
      << text;

  EXPECT_EQ(test::messageOf([] { parseReadoutsFormat("npy"); }),
            "--format must be text, json or csv with --readouts (got \"npy\")");
  const PositionIds ids = effectiveIds(s);
  const AttentionProblem open = makeAttentionProblem(s, src, false);
  EXPECT_NE(test::messageOf([&] { attentionReadouts(open, ids, 1); }).find("causal"),
            std::string::npos);
}

}  // namespace
}  // namespace ropescope
