// The desktop app's size limits: the every-design bias spread is left out above its cost (never
// a 0, never a silent gap), cancelled work says so; preview q/k sizes are refused with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/progress.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

using namespace ropescope;

namespace {

Scene withLayout(const char* spec) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(spec);
  return s;
}

// The app opens every scene memory allows (no pair-count refusal): what would take far too long
// is left out by its cost, and said so, never shown as a number.
TEST(InteractiveSize, SummaryBiasAboveItsCostIsNotComputedAndSaysWhy) {
  const Scene s = withLayout("t100,i64x64");  // 100 x 4096 pairs
  const BiasCost cost = biasSpreadCost(s);
  EXPECT_EQ(cost.pairs, 409600.0);
  const double perToken = double(resolvePairs(s.frequency).size()) * 16.0;  // cos, sin per pair
  EXPECT_EQ(cost.tableBytes, 4096.0 * perToken);
  const std::vector<DesignSummary> all = compareDesigns(s, 1);
  ASSERT_GT(all.size(), 10u);
  // Over the pairs, or over the tables' bytes: the PTD is still computed, the spread says why.
  for (const BiasLimit limit :
       {BiasLimit{409599.0, 1e300}, BiasLimit{1e300, cost.tableBytes - 1}}) {
    const std::vector<DesignSummary> limited = compareDesigns(s, 1, {}, limit);
    ASSERT_EQ(limited.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(limited[i].design, all[i].design);
      EXPECT_EQ(limited[i].ptd, all[i].ptd) << all[i].design;
      EXPECT_TRUE(std::isnan(limited[i].biasSpread)) << all[i].design;
      EXPECT_EQ(limited[i].biasUndefined, notComputedBias(cost));
      EXPECT_TRUE(all[i].biasUndefined.empty()) << all[i].design;
    }
  }
  EXPECT_EQ(notComputedBias({2.5e11, 4.0 * 1024 * 1024 * 1024}),
            "not computed (2.5e+11 pairs, tables up to 4.00 GiB; `ropescope bias` computes any "
            "size)");
  // At the limit itself: computed.
  EXPECT_TRUE(compareDesigns(s, 1, {}, {cost.pairs, cost.tableBytes})[0].biasUndefined.empty());
  // The app's limit: the million-token video t1000,v1000x32x32,t1000 is computed; the
  // 4M-token video (its tables) and the document of 500 pictures between text (its pairs) not.
  const auto fits = [](const char* spec) {
    const BiasCost c = biasSpreadCost(withLayout(spec));
    return c.pairs <= kInteractiveBiasLimit.pairs &&
           c.tableBytes <= kInteractiveBiasLimit.tableBytes;
  };
  EXPECT_TRUE(fits("t1000,v1000x32x32,t1000"));
  EXPECT_FALSE(fits("t1000,v4000x32x32,t1000"));
  EXPECT_GT(500.0 * 1000 * 500 * 1024, kInteractiveBiasLimit.pairs);
}

TEST(InteractiveSize, CompareDesignsReportsProgressAndStopsWhenCancelled) {
  const Scene s = withLayout("t64,i32x32");
  std::vector<double> seen;
  const auto rows = compareDesigns(s, 1, Progress{{}, [&](double f) { seen.push_back(f); }});
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), 1.0);
  // Cancelled: every row reads kCancelledReason, never a number; the designs all named.
  const auto cut = compareDesigns(s, 1, Progress{[] { return true; }, {}});
  ASSERT_EQ(cut.size(), rows.size());
  for (std::size_t i = 0; i < cut.size(); ++i) {
    EXPECT_EQ(cut[i].design, rows[i].design);
    EXPECT_FALSE(std::isnan(rows[i].ptd)) << rows[i].design;
    EXPECT_TRUE(std::isnan(cut[i].ptd)) << cut[i].design;
    EXPECT_TRUE(std::isnan(cut[i].biasSpread)) << cut[i].design;
    EXPECT_EQ(cut[i].ptdUndefined, kCancelledReason);
    EXPECT_EQ(cut[i].biasUndefined, kCancelledReason);
  }
  // The modality table alike: every pair listed, none computed.
  const std::atomic<bool> stopped{true};
  const auto pairs = sceneModalityMetrics(withLayout("t10,a20,i32x32"), 1, &stopped);
  EXPECT_EQ(pairs.size(), 6u);
  for (const ModalityPairMetrics& p : pairs) {
    EXPECT_EQ(p.skipped, kCancelledReason);
    EXPECT_TRUE(std::isnan(p.ptd));
  }
}

}  // namespace

TEST(InteractiveSize, PreviewQkRefusedOnlyAboveItsLimitWithOneLine) {
  QkSourceSpec random;
  random.kind = QkSourceSpec::Kind::Random;
  random.heads = 4;
  // 4 x 131072 x 128 = 2^26 values exactly: accepted; one token more is refused.
  EXPECT_NO_THROW(checkPreviewQkSize(random, 131072, 128));
  try {
    checkPreviewQkSize(random, 131073, 128);
    ADD_FAILURE() << "2^26 + 512 values should be refused";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.field(), "heads");
    EXPECT_NE(m.find("4 head(s) x 131073 tokens x 128 dims"), std::string::npos) << m;
    EXPECT_NE(m.find("67108864"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  // The abuse test's case: 4 random heads on a 245764-token scene.
  EXPECT_THROW(checkPreviewQkSize(random, 245764, 128), InputError);
  QkSourceSpec identical;  // 1 head: the same scene is previewed
  EXPECT_NO_THROW(checkPreviewQkSize(identical, 245764, 128));
  QkSourceSpec files;  // the user's own files: their size is the user's choice
  files.kind = QkSourceSpec::Kind::Files;
  files.heads = 64;
  EXPECT_NO_THROW(checkPreviewQkSize(files, 245764, 128));
}
