// Layout spec parsing: valid forms round-trip; every malformed form is refused with a message
// that names the item and the accepted form.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/memory_limit.h"

using namespace ropescope;

TEST(LayoutSpec, ParsesTextImagesAndVideos) {
  const Layout l = parseLayoutSpec("t5,i3x3,t2,i1x1,t1");
  ASSERT_EQ(l.segments.size(), 5u);
  EXPECT_EQ(l.segments[1], Segment::image(3, 3));
  EXPECT_EQ(l.tokenCount(), 5u + 9 + 2 + 1 + 1);
  EXPECT_EQ(l.textCount(), 8u);
  const Layout v = parseLayoutSpec("t4000,v16x32x32,t4000");
  EXPECT_EQ(v.segments[1], Segment::video(16, 32, 32));
  EXPECT_EQ(v.visualCount(), 16384u);
}

TEST(LayoutSpec, RoundTripsThroughFormat) {
  for (const char* spec : {"t1,i2x2,t1", "t20,v8x16x16,t4", "i1x7", "t3"})
    EXPECT_EQ(formatLayoutSpec(parseLayoutSpec(spec)), spec);
}

TEST(LayoutSpec, ToleratesSpacesAroundItems) {
  EXPECT_EQ(parseLayoutSpec(" t1 , i2x2 ").segments.size(), 2u);
}

struct BadSpec {
  const char* spec;
  const char* mustMention;
};

void PrintTo(const BadSpec& c, std::ostream* os) {
  *os << '"' << c.spec << '"';
}

class LayoutSpecErrors : public ::testing::TestWithParam<BadSpec> {};

TEST_P(LayoutSpecErrors, RefusedWithOneLineMessage) {
  const BadSpec& c = GetParam();
  try {
    parseLayoutSpec(c.spec);
    FAIL() << "accepted \"" << c.spec << "\"";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_NE(m.find(c.mustMention), std::string::npos) << "message: " << m;
    EXPECT_EQ(e.field(), "layout");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, LayoutSpecErrors,
    ::testing::Values(
        BadSpec{"i0x3", "1..4096"}, BadSpec{"t-1", "text length must be 1..2147483647 (got -1)"},
        BadSpec{"i3x", "missing number"}, BadSpec{"q4", "unknown segment kind"},
        BadSpec{"", "empty"}, BadSpec{"   ", "empty"}, BadSpec{"t1,", "trailing comma"},
        BadSpec{",t1", "empty item"}, BadSpec{"t1,,t2", "empty item"},
        BadSpec{"i3x3x3", "rows x cols"}, BadSpec{"v2x2", "frames x rows x cols"},
        BadSpec{"t0", "1..2147483647"}, BadSpec{"t1.5", "not a whole number"},
        BadSpec{"tx", "missing number"},
        BadSpec{"t99999999999999999999",
                "too large (lengths are 1..2147483647 tokens, image and video sides 1..4096)"},
        BadSpec{"i5000x1", "1..4096"},
        BadSpec{"v4096x4096x4096", "68,719,476,736 tokens: more than ropescope can index"},
        BadSpec{"i-3x3", "image sides must be 1..4096 (got -3)"},
        BadSpec{"\xEF\xBD\x94"
                "5",
                "unknown segment kind '\xEF\xBD\x94'"},
        BadSpec{"t+", "missing number"}));

// A sign is read like any other character of the number: "+3" is 3, and "-1" meets the range check.
TEST(LayoutSpec, ReadsAPlusSignAsThePositiveNumber) {
  const Layout l = parseLayoutSpec("t+3,i+2x3");
  ASSERT_EQ(l.segments.size(), 2u);
  EXPECT_EQ(l.segments[0].length, 3);
  EXPECT_EQ(l.segments[1].rows, 2);
  EXPECT_EQ(l.segments[1].cols, 3);
}

TEST(LayoutValidation, RefusesLayoutsBuiltInCode) {
  EXPECT_THROW(validateLayout(Layout{}), InputError);
  EXPECT_THROW(validateLayout(Layout{{Segment::image(0, 3)}}), InputError);
  EXPECT_THROW(validateLayout(Layout{{Segment::text(-4)}}), InputError);
  EXPECT_NO_THROW(validateLayout(Layout{{Segment::text(4), Segment::video(2, 3, 3)}}));
}

// The size limit is the machine's memory (ROPESCOPE_MEMORY_LIMIT stands in for it here), not a
// constant: one line with the size, the memory it needs, what there is and what to do.
TEST(LayoutSpec, SizeLimitIsTheMachinesMemory) {
  struct Limit {
    explicit Limit(const char* v) { setenv("ROPESCOPE_MEMORY_LIMIT", v, 1); }
    ~Limit() { unsetenv("ROPESCOPE_MEMORY_LIMIT"); }
  };
  {
    const Limit one("1M");  // 1 MiB / 256 bytes a token = 4096 tokens
    EXPECT_EQ(maxTokensInMemory(), 4096u);
    EXPECT_EQ(parseLayoutSpec("t96,i40x100").tokenCount(), 4096u);
    try {
      parseLayoutSpec("t97,i40x100");
      ADD_FAILURE() << "4097 tokens in 1 MiB";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(e.field(), "layout");
      for (const char* part :
           {"layout has 4,097 tokens", "needs about 1.00 MiB", "256 bytes a token",
            "has 1.00 MiB available", "at most 4,096 tokens", "ROPESCOPE_MEMORY_LIMIT"})
        EXPECT_NE(m.find(part), std::string::npos) << part << " in: " << m;
      EXPECT_EQ(m.find('\n'), std::string::npos);
    }
    // A scene's layout goes through the same check.
    Layout l;
    l.segments = {Segment::text(5000)};
    EXPECT_THROW(validateLayout(l), InputError);
  }
  {
    const Limit big("1T");  // more than ropescope can index: the ceiling speaks
    try {
      parseLayoutSpec("t2000000000,t2000000000");
      ADD_FAILURE() << "4e9 tokens";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(
                    "layout has 4,000,000,000 tokens: more than ropescope can index "
                    "(1..2,147,483,647 tokens"),
                std::string::npos)
          << e.what();
    }
  }
  for (const char* bad : {"lots", "0", "12Q", "5GB", "-1"}) {
    const Limit unreadable(bad);  // said, never silently replaced by the measured memory
    try {
      parseLayoutSpec("t5");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ROPESCOPE_MEMORY_LIMIT must be a whole number"),
                std::string::npos)
          << e.what();
    }
  }
  {
    const Limit two("2G");  // 2^22 tokens and more fit in 2 GiB
    EXPECT_EQ(parseLayoutSpec("t1000,v1024x32x128,t1000").tokenCount(), 4196304u);
  }
  // Without the override: the kernel's figure, read once (some memory, at most the machine's).
  const std::uint64_t measured = availableMemoryBytes();
  EXPECT_GT(measured, std::uint64_t{16} << 20);
  EXPECT_LE(measured, static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                          static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE)));
  EXPECT_EQ(maxTokensInMemory(),
            std::min<std::uint64_t>(measured / kBytesPerToken, kMaxLayoutTokens));
}

TEST(MemoryLimit, FormatsBytesInBinaryUnits) {
  EXPECT_EQ(formatBytes(512), "512 bytes");
  EXPECT_EQ(formatBytes(1024), "1.00 KiB");
  EXPECT_EQ(formatBytes(1536ull << 20), "1.50 GiB");
  EXPECT_EQ(formatBytes(21474836480ull + (400ull << 20)), "20.4 GiB");
  EXPECT_EQ(formatBytes(256ull << 20), "256 MiB");
}
