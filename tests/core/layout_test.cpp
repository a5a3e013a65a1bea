// Layout spec parsing: valid forms round-trip; every malformed form is refused with a message
// that names the item and the accepted form.
#include <gtest/gtest.h>

#include "ropescope/errors.h"
#include "ropescope/layout.h"

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
        BadSpec{"i0x3", "1..4096"}, BadSpec{"t-1", "text length must be 1..262144 (got -1)"},
        BadSpec{"i3x", "missing number"}, BadSpec{"q4", "unknown segment kind"},
        BadSpec{"", "empty"}, BadSpec{"   ", "empty"}, BadSpec{"t1,", "trailing comma"},
        BadSpec{",t1", "empty item"}, BadSpec{"t1,,t2", "empty item"},
        BadSpec{"i3x3x3", "rows x cols"}, BadSpec{"v2x2", "frames x rows x cols"},
        BadSpec{"t0", "1..262144"}, BadSpec{"t1.5", "not a whole number"},
        BadSpec{"tx", "missing number"},
        BadSpec{"t99999999999999999999",
                "too large (lengths are 1..262144 tokens, image and video sides 1..4096)"},
        BadSpec{"i5000x1", "1..4096"}, BadSpec{"v4096x4096x4096", "more than 262144"},
        BadSpec{"t200000,t100000", "more than 262144"},
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
