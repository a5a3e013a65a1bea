// Cancelling an attention request: the CPU backend asks its cancel check between tiles, stops
// within a tile of being told, throws AttentionCancelled, and still answers later requests.
#include <gtest/gtest.h>

#include <atomic>

#include "ropescope/attention.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"

using namespace ropescope;

namespace {

AttentionProblem problem(const char* layout) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(layout);
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.seed = 5;
  return makeAttentionProblem(s, src, false);
}

TEST(AttentionCancel, StopsWithinATileAndTheBackendStaysUsable) {
  const AttentionProblem p = problem("t6000");
  auto be = makeCpuAttentionBackend(2);
  be->load(p);
  std::atomic<int> asked{0};
  std::atomic<bool> stop{false};
  be->setCancelCheck([&] {
    ++asked;
    return stop.load();
  });
  // Not told to stop: the same numbers as without a check, and it was asked once per tile.
  std::vector<float> with(100 * 100), without(100 * 100);
  be->pooled(0, 60, AttentionValue::Softmax, with.data());
  const int perRun = asked.load();
  EXPECT_GT(perRun, 10);
  auto plain = makeCpuAttentionBackend(2);
  plain->load(p);
  plain->pooled(0, 60, AttentionValue::Softmax, without.data());
  for (std::size_t i = 0; i < with.size(); ++i)
    ASSERT_NEAR(with[i], without[i], 1e-6 * std::max(1.0f, std::abs(without[i])));
  // Told to stop after a few tiles: it throws and asks only a little past that point (how
  // little is counted in checks, not timed: a loaded machine must not change the verdict).
  asked = 0;
  be->setCancelCheck([&] { return ++asked > 5; });
  EXPECT_THROW(be->pooled(0, 60, AttentionValue::Softmax, with.data()), AttentionCancelled);
  EXPECT_THROW(
      be->rows(0, 0, 6000, AttentionValue::Logits, std::vector<float>(6000u * 6000).data()),
      AttentionCancelled);
  EXPECT_LT(asked.load(), 5 + 2 * 4 + perRun / 2);
  // Usable again once the check allows it.
  be->setCancelCheck({});
  be->pooled(0, 60, AttentionValue::Softmax, with.data());
  for (std::size_t i = 0; i < with.size(); ++i)
    ASSERT_NEAR(with[i], without[i], 1e-6 * std::max(1.0f, std::abs(without[i])));
}

}  // namespace
