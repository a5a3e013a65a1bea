// LargeBuffer (ropescope/large_buffer.h): memory in whole huge pages, aligned to one, zeroed by
// the kernel; moving hands the mapping over and leaves the source empty.
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

TEST(LargeBuffer, StartsZeroed) {
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{300000}}) {
    const LargeBuffer<double> b(count);
    ASSERT_TRUE(b) << count;
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < count; ++i) nonzero += b.data()[i] != 0.0;
    EXPECT_EQ(nonzero, 0u) << count;
  }
}

}  // namespace
