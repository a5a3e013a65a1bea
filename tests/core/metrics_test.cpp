// PTD and bias spread: the fast paths against the definitions written out, on random layouts
// under every design and plan, closed forms for 1-D hard embedding, and thread invariance.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "test_util.h"

using namespace ropescope;

TEST(Ptd, HardEmbeddingMatchesTheClosedForm) {
  // MAD of N consecutive integers: (N^2 - 1) / (4N) for odd N, N / 4 for even N.
  for (int n : {1, 2, 3, 4, 9, 16, 25}) {
    const int h = n == 2 ? 1 : static_cast<int>(std::sqrt(n));
    const int w = n / h;
    const Layout l{{Segment::image(h, w), Segment::text(5)}};
    const PtdResult r = perTokenDistance(findDesign("hard").ids(l, {}));
    const int N = h * w;
    const double expected = N % 2 ? (N * N - 1.0) / (4.0 * N) : N / 4.0;
    EXPECT_NEAR(r.ptd, expected, 1e-12) << h << "x" << w;
  }
  const PtdResult paper = perTokenDistance(findDesign("hard").ids(parseLayoutSpec("i3x3,t5"), {}));
  EXPECT_NEAR(paper.ptd, 20.0 / 9.0, 1e-14);
  EXPECT_EQ(paper.nText, 5u);
  EXPECT_EQ(paper.nVisual, 9u);
}

TEST(Ptd, UnorderedIsZero) {
  EXPECT_EQ(perTokenDistance(findDesign("unordered").ids(parseLayoutSpec("t3,i4x4,t2"), {})).ptd,
            0.0);
}

// nothing to measure is undefined (NaN with a reason naming the counts), not 0
// ("perfectly uniform"), in the fast paths and the references alike.
TEST(Ptd, NoTextOrNoVisualIsUndefinedWithTheReason) {
  const PairTable pairs = resolvePairs(FrequencySpec{});
  for (const char* spec : {"t5", "i2x2", "v2x2x2"}) {
    const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec(spec), {});
    for (const PtdResult& r : {perTokenDistance(ids, 2), perTokenDistanceReference(ids)}) {
      EXPECT_FALSE(r.defined()) << spec;
      EXPECT_TRUE(std::isnan(r.ptd)) << spec;
      EXPECT_TRUE(r.perText.empty());
    }
    for (const BiasResult& b : {biasSpread(ids, pairs, 2), biasSpreadReference(ids, pairs)}) {
      EXPECT_FALSE(b.defined()) << spec;
      EXPECT_TRUE(std::isnan(b.spread)) << spec;
    }
  }
  const PtdResult a = perTokenDistance(findDesign("mrope").ids(parseLayoutSpec("t5"), {}));
  EXPECT_EQ(a.nVisual, 0u);
  EXPECT_EQ(a.undefinedReason,
            "PTD needs at least one text and one visual token (layout has 5 text, 0 visual)");
  const PtdResult b = perTokenDistance(findDesign("mrope").ids(parseLayoutSpec("i2x2"), {}));
  EXPECT_EQ(b.nText, 0u);
  EXPECT_EQ(b.undefinedReason,
            "PTD needs at least one text and one visual token (layout has 0 text, 4 visual)");
  EXPECT_EQ(biasSpread(findDesign("mrope").ids(parseLayoutSpec("t3"), {}), pairs).undefinedReason,
            "bias spread needs at least one text and one visual token (layout has 3 text, 0 "
            "visual)");
  EXPECT_EQ(missingTokensText(5, 0), "no visual token");
  EXPECT_EQ(missingTokensText(0, 4), "no text token");
  EXPECT_EQ(missingTokensText(0, 0), "no text or visual token");
  EXPECT_EQ(missingTokensText(1, 1), "");
  // One text and one visual token are enough.
  const PositionIds one = findDesign("mrope").ids(parseLayoutSpec("t1,i1x1"), {});
  EXPECT_TRUE(perTokenDistance(one).defined());
  EXPECT_EQ(perTokenDistance(one).ptd, 0.0);
  EXPECT_TRUE(biasSpread(one, pairs).defined());
}

TEST(Ptd, FastPathAgreesWithTheDefinitionEverywhere) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 25; ++trial) {
    const Layout l = test::randomLayout(rng);
    for (const PositionDesign* d : allDesigns()) {
      const PositionIds ids = d->ids(l, {});
      const PtdResult fast = perTokenDistance(ids, 1);
      const PtdResult slow = perTokenDistanceReference(ids);
      ASSERT_EQ(fast.perText.size(), slow.perText.size());
      for (std::size_t t = 0; t < fast.perText.size(); ++t) {
        EXPECT_NEAR(fast.meanDistance[t], slow.meanDistance[t], 1e-9 * slow.meanDistance[t]);
        EXPECT_NEAR(fast.perText[t], slow.perText[t], 1e-9 * slow.meanDistance[t])
            << d->name() << " " << formatLayoutSpec(l);
      }
      EXPECT_NEAR(fast.ptd, slow.ptd, 1e-9 * std::max(slow.ptd, 1e-3)) << d->name();
    }
  }
}

TEST(Ptd, LargeOffsetsKeepRelativeAccuracy) {
  // Text far from the image: the expansion about the block centre must not cancel.
  const Layout l = parseLayoutSpec("t3000,i16x16,t3000");
  for (const char* design : {"mrope", "circle", "videorope", "spatial"}) {
    const PositionIds ids = findDesign(design).ids(l, {});
    const PtdResult fast = perTokenDistance(ids, 2), slow = perTokenDistanceReference(ids);
    for (std::size_t t = 0; t < fast.perText.size(); t += 97)
      EXPECT_LE(std::abs(fast.perText[t] - slow.perText[t]),
                1e-9 * std::max(slow.perText[t], 1e-6 * slow.meanDistance[t]))
          << design << " text " << t;
  }
}

TEST(Ptd, ThreadCountDoesNotChangeTheResult) {
  const PositionIds ids = findDesign("mrope").ids(parseLayoutSpec("t300,v3x9x11,t200"), {});
  const PtdResult one = perTokenDistance(ids, 1), two = perTokenDistance(ids, 2),
                  all = perTokenDistance(ids, 0);
  EXPECT_EQ(one.ptd, two.ptd);
  EXPECT_EQ(one.ptd, all.ptd);
  EXPECT_EQ(one.perText, two.perText);
}

TEST(Bias, ZeroDisplacementGivesOne) {
  for (const FrequencyPlan* p : allPlans()) {
    FrequencySpec f;
    f.plan = p->name();
    EXPECT_DOUBLE_EQ(positionalBias(resolvePairs(f), {0, 0, 0}), 1.0) << p->name();
  }
}

TEST(Bias, FastPathAgreesWithTheDefinitionUnderEveryPlan) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 8; ++trial) {
    const Layout l = test::randomLayout(rng, 4, 5);
    for (const char* design : {"hard", "mrope", "mrope-reset", "circle", "videorope", "v2pe"}) {
      const PositionIds ids = findDesign(design).ids(l, {});
      for (const FrequencyPlan* plan : allPlans()) {
        FrequencySpec f;
        f.plan = plan->name();
        f.rotary.base = trial % 2 ? 1e4 : 1e6;
        f.kvHead = trial % 8;
        const PairTable pairs = resolvePairs(f);
        const BiasResult fast = biasSpread(ids, pairs, 1 + trial % 2);
        const BiasResult slow = biasSpreadReference(ids, pairs);
        ASSERT_EQ(fast.perText.size(), slow.perText.size());
        for (std::size_t t = 0; t < fast.perText.size(); ++t) {
          EXPECT_NEAR(fast.meanBias[t], slow.meanBias[t], 1e-12);
          EXPECT_NEAR(fast.perText[t], slow.perText[t], 1e-12) << design << " " << plan->name();
        }
        EXPECT_NEAR(fast.spread, slow.spread, 1e-12);
      }
    }
  }
}

TEST(Bias, PtdZeroDoesNotMakeMropeBiasUniform) {
  // The cone gives equal distances, but M-RoPE sections see per-axis differences
  // (docs/math.md#positional-bias): the bias spread is clearly above zero.
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("i3x3,t5"), {});
  EXPECT_LT(perTokenDistance(ids).ptd, 1e-12);
  FrequencySpec f;  // mrope [16,24,24], base 1e6
  EXPECT_GT(biasSpread(ids, resolvePairs(f)).spread, 1e-3);
  // Under a vanilla plan only the t channel matters, which the ring does move too.
  f.plan = "vanilla";
  EXPECT_GT(biasSpread(ids, resolvePairs(f)).spread, 1e-3);
}

// The fused circle product keeps its visual-side memory on each thread for the next update: a
// smaller scene after a larger one and the larger one again give the bits a fresh thread gives,
// on one and two threads (a buffer reused too small, or read before it is written, shows here).
TEST(Bias, ACircleSpreadDoesNotDependOnTheScenesBeforeItOnItsThread) {
  FrequencySpec spec;
  spec.plan = "mrope";
  spec.rotary.headDim = 128;
  spec.rotary.rotaryDim = 128;
  spec.rotary.base = 1e6;
  const PairTable pairs = resolvePairs(spec);
  const PositionDesign& circle = findDesign("circle");
  const PositionIds large = circle.ids(parseLayoutSpec("t50,i30x31,t50"), {});
  const PositionIds small = circle.ids(parseLayoutSpec("t9,i7x5,t9"), {});  // 35: a partial panel
  for (int threads : {1, 2}) {
    BiasResult freshLarge, freshSmall;
    std::thread([&] { freshLarge = biasSpread(large, pairs, threads); }).join();
    std::thread([&] { freshSmall = biasSpread(small, pairs, threads); }).join();
    ASSERT_TRUE(freshSmall.defined());
    for (int round = 0; round < 2; ++round) {
      const BiasResult l = biasSpread(large, pairs, threads), s = biasSpread(small, pairs, threads);
      EXPECT_EQ(l.perText, freshLarge.perText) << threads << " threads, round " << round;
      EXPECT_EQ(s.perText, freshSmall.perText) << threads << " threads, round " << round;
      EXPECT_EQ(s.spread, freshSmall.spread) << threads << " threads, round " << round;
    }
  }
}
