// The one background-job mechanism (jobs/latest_worker.h): a job asked to wait for edits to
// settle is replaced by a newer request or dropped by cancel() while it waits, never run; the
// newest starts once its own pause is over; a job's number is its request's; and a worker
// destroyed while a job waits ends at once. Nothing here waits for a time: the pauses are an
// hour (never over within a test) or none.
#include <gtest/gtest.h>

#include <QObject>

#include <atomic>
#include <memory>

#include "gui_test_util.h"
#include "jobs/latest_worker.h"
#include "platform/thread_priority.h"

using ropescope::ui::LatestWorker;
using ropescope::ui::test::waitUntil;

namespace {
constexpr int kHourMs = 3600 * 1000;
}

TEST(LatestWorker, ANewerRequestReplacesAJobWaitingForEditsToSettle) {
  QObject receiver;
  std::atomic<int> ranFirst{0}, ranSecond{0};
  std::atomic<std::uint64_t> secondTicket{0};
  std::uint64_t asked = 0;
  std::atomic<int> settling{0};
  {
    LatestWorker worker(&receiver);
    worker.setSettleHook([&settling] { ++settling; });
    worker.requestAfter(kHourMs, [&](const LatestWorker::Context&) { ++ranFirst; });
    const std::uint64_t first = worker.lastRequest();
    EXPECT_GT(first, 0u);
    // The worker takes the job up and waits with it instead of starting it.
    ASSERT_TRUE(waitUntil([&] { return settling.load() > 0 || worker.started() > 0; }));
    EXPECT_EQ(worker.started(), 0);
    EXPECT_TRUE(worker.busy());
    worker.request([&](const LatestWorker::Context& job) {
      secondTicket = job.ticket();
      ++ranSecond;
    });
    asked = worker.lastRequest();
    EXPECT_GT(asked, first);
    ASSERT_TRUE(waitUntil([&] { return ranSecond.load() == 1; }));
    EXPECT_EQ(worker.started(), 1);
    EXPECT_EQ(worker.requested(), 2);
  }
  EXPECT_EQ(ranFirst.load(), 0);
  EXPECT_EQ(secondTicket.load(), asked);
}

TEST(LatestWorker, CancelDropsAWaitingJobAndTheWorkerEndsWithoutItsPause) {
  QObject receiver;
  std::atomic<int> ran{0};
  {
    LatestWorker worker(&receiver);
    worker.requestAfter(kHourMs, [&](const LatestWorker::Context&) { ++ran; });
    EXPECT_TRUE(worker.busy());
    worker.cancel();
    EXPECT_FALSE(worker.busy());
    worker.requestAfter(kHourMs, [&](const LatestWorker::Context&) { ++ran; });
    // Destroyed while the job waits: it is dropped, and the destructor does not sit out the
    // hour (the test's hang guard would end it).
  }
  EXPECT_EQ(ran.load(), 0);
}

TEST(LatestWorker, AJobStartsOnceItsPauseIsOverAndPostsItsResult) {
  QObject receiver;
  LatestWorker worker(&receiver);
  int delivered = 0;
  worker.requestAfter(1, [&delivered](const LatestWorker::Context& job) {
    job.post([&delivered] { ++delivered; });
  });
  ASSERT_TRUE(waitUntil([&] { return delivered == 1; }));
  EXPECT_EQ(worker.started(), 1);
}

// A worker of low priority runs its jobs on a thread that yields the CPUs to the window's (the
// bias spread while α is dragged): its nice value is kLowNice, the window's thread keeps its
// own, and a worker of normal priority runs at the window's.
TEST(LatestWorker, ALowPriorityWorkerYieldsTheCpusAndLeavesTheWindowsThreadAlone) {
  QObject receiver;
  const int mine = ropescope::ui::thisThreadNice();
  std::atomic<int> low{-100}, normal{-100};
  {
    LatestWorker slow(&receiver, LatestWorker::Priority::Low);
    LatestWorker usual(&receiver);
    slow.request([&](const LatestWorker::Context&) { low = ropescope::ui::thisThreadNice(); });
    usual.request([&](const LatestWorker::Context&) { normal = ropescope::ui::thisThreadNice(); });
    ASSERT_TRUE(waitUntil([&] { return low.load() != -100 && normal.load() != -100; }));
  }
#if defined(__linux__)
  EXPECT_EQ(low.load(), ropescope::ui::kLowNice);
  EXPECT_GT(low.load(), mine);
#endif
  EXPECT_EQ(normal.load(), mine);
  EXPECT_EQ(ropescope::ui::thisThreadNice(), mine);
}
