// LargeBuffer (ropescope/large_buffer.h): zero-filled memory, in whole huge pages aligned to one
// from 1 MiB up and from the heap below; moving hands the memory over and leaves the source
// empty, and each kind is given back the way it was taken (the sanitizer build checks that).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "ropescope/large_buffer.h"

namespace {

using ropescope::LargeBuffer;

TEST(LargeBuffer, IsAlignedToA2MiBPageAndHoldsWhatIsWritten) {
  LargeBuffer<double> b(300000);  // 2.4 MB: two huge pages
  ASSERT_TRUE(b);
  EXPECT_EQ(b.size(), 300000u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % (std::uintptr_t{2} << 20), 0u);
  for (std::size_t i = 0; i < b.size(); ++i) b.data()[i] = static_cast<double>(i);
  EXPECT_EQ(b.data()[299999], 299999.0);
  const LargeBuffer<char> none(0);
  EXPECT_FALSE(none);
  EXPECT_EQ(none.data(), nullptr);
}

TEST(LargeBuffer, AMovedFromBufferIsEmpty) {
  LargeBuffer<float> a(1000);
  a.data()[999] = 7.0f;
  LargeBuffer<float> b(std::move(a));
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
  EXPECT_EQ(a.size(), 0u);
  ASSERT_TRUE(b);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_EQ(b.data()[999], 7.0f);
  LargeBuffer<float> c(10);
  c = std::move(b);
  EXPECT_FALSE(b);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_EQ(c.data()[999], 7.0f);
}

TEST(LargeBuffer, BothKindsStartZeroed) {
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{131071},
                            std::size_t{131072}, std::size_t{300000}}) {
    const LargeBuffer<double> b(count);  // 131072 doubles = 1 MiB: the first huge-page size
    ASSERT_TRUE(b) << count;
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < count; ++i) nonzero += b.data()[i] != 0.0;
    EXPECT_EQ(nonzero, 0u) << count;
    if (count >= 131072)
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % (std::uintptr_t{2} << 20), 0u)
          << count << ": huge pages from 1 MiB up";
  }
}

TEST(LargeBuffer, AssigningAcrossKindsReleasesEachTheWayItWasTaken) {
  LargeBuffer<double> small(10), large(300000);
  small.data()[9] = 1.5;
  large.data()[299999] = 2.5;
  LargeBuffer<double> x(20);
  x = std::move(large);  // frees a heap block, takes a mapping
  EXPECT_EQ(x.data()[299999], 2.5);
  x = std::move(small);  // unmaps, takes a heap block
  EXPECT_EQ(x.size(), 10u);
  EXPECT_EQ(x.data()[9], 1.5);
}

}  // namespace
