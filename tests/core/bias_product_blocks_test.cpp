// The bias spread over whole-grid blocks (core/src/bias_product_blocks.h): which blocks qualify,
// and the sorted per-frame sums against the definition for every design and plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../core/src/bias_product_blocks.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

namespace ropescope {
namespace {

TEST(BiasProductBlocks, GridsQualifyRingsDoNot) {
  const Layout l = parseLayoutSpec("t4,v17x3x5,t2,i4x6,t3");
  const auto blocksOf = [&l](const char* design) {
    const PositionIds ids = findDesign(design).ids(l, {});
    const std::vector<std::size_t> vis = ids.visualIndices();
    const TokenAxisIndex index = tokenAxisIndex(ids, vis);
    return detail::productBlocks(
        ids, vis, {index.index[0].data(), index.index[1].data(), index.index[2].data()});
  };
  const std::vector<detail::ProductBlock> grid = blocksOf("mrope");
  ASSERT_EQ(grid.size(), 2u);
  EXPECT_EQ(grid[0].frames, 17u);
  EXPECT_EQ(grid[0].rows, 3u);
  EXPECT_EQ(grid[0].cols, 5u);
  EXPECT_EQ(grid[1].frames, 1u);
  // Circle-RoPE's ring: h and w of a token depend on both its row and its col.
  EXPECT_TRUE(blocksOf("circle").empty());
}

TEST(BiasProductBlocks, AgreeWithTheDefinitionForEveryDesignAndPlan) {
  // Long videos (>= kSortedFrames frames) take the sorted sums; text beside, inside and far
  // (100 tokens on each side of the 40-frame video: every distance to it then has one sign; 300
  // made this test 270 s of the sanitizer stage, the reference being text x visual x pairs).
  const char* const layouts[] = {"t40,v20x5x6,t30", "t3,v16x3x3,t2,i4x4,t5",
                                 "t100,v40x2x7,t20,v3x4x4,t100"};
  // Under ASan the fast sums run for every design, layout and plan (what the sanitizer
  // checks); the direct sum, the test's cost (text x visual x pairs), is compared for one plan
  // in three, a different third for each design, so that every design and every plan is still
  // compared. The release build compares every combination.
#ifdef ROPESCOPE_ASAN
  const std::size_t referenceStride = 3;
#else
  const std::size_t referenceStride = 1;
#endif
  int sorted = 0;
  std::size_t designIndex = 0;
  for (const PositionDesign* d : allDesigns()) {
    ++designIndex;
    for (const char* spec : layouts) {
      const PositionIds ids = d->ids(parseLayoutSpec(spec), {});
      std::size_t planIndex = 0;
      for (const FrequencyPlan* plan : allPlans()) {
        FrequencySpec f;
        f.plan = plan->name();
        const PairTable pairs = resolvePairs(f);
        const BiasResult fast = biasSpread(ids, pairs, 2);
        const std::vector<std::size_t> vis = ids.visualIndices();
        const TokenAxisIndex index = tokenAxisIndex(ids, vis);
        const auto blocks = detail::productBlocks(
            ids, vis, {index.index[0].data(), index.index[1].data(), index.index[2].data()});
        sorted += std::any_of(blocks.begin(), blocks.end(), [](const detail::ProductBlock& b) {
          return b.frames >= detail::kSortedFrames;
        });
        if ((planIndex++ + designIndex) % referenceStride != 0) continue;
        const BiasResult slow = biasSpreadReference(ids, pairs);
        ASSERT_EQ(fast.perText.size(), slow.perText.size());
        // b lies in [-1, 1]: a spread that is 0 up to rounding (unordered: every b the same, the
        // mean from grouped sums) is off by at most the rounding of a sum over the visual
        // tokens in another order, n eps (clang's ASan build at -O1: 1.25e-14 on 600 tokens).
        const double rounding =
            static_cast<double>(vis.size()) * std::numeric_limits<double>::epsilon();
        for (std::size_t t = 0; t < fast.perText.size(); ++t) {
          ASSERT_NEAR(fast.meanBias[t], slow.meanBias[t],
                      1e-12 * std::abs(slow.meanBias[t]) + 1e-15)
              << d->name() << " " << spec << " " << plan->name();
          ASSERT_NEAR(fast.perText[t], slow.perText[t], 1e-12 * slow.perText[t] + rounding)
              << d->name() << " " << spec << " " << plan->name() << " text " << t;
        }
        EXPECT_NEAR(fast.spread, slow.spread, 1e-12 * slow.spread + rounding);
      }
    }
  }
  EXPECT_GT(sorted, 20);  // the sorted path was taken, not only the old one
}

}  // namespace
}  // namespace ropescope
