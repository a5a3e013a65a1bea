// The grid report (ropescope grid): one picture per line, exact integers, escaped names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ropescope/grid_report.h"

using namespace ropescope;
using nlohmann::json;

TEST(GridReport, OnePicturePerLine) {
  const std::vector<GridReportEntry> entries = {
      {"castle.png", 320, 240, {252, 308, 9, 11}},
      {"moving.gif", 112, 112, {112, 112, 4, 4}},
  };
  EXPECT_EQ(
      gridReport(entries),
      "[\n"
      "  {\"file\": \"castle.png\", \"width\": 320, \"height\": 240, \"resized\": [252, 308], "
      "\"grid\": [9, 11], \"tokens\": 99},\n"
      "  {\"file\": \"moving.gif\", \"width\": 112, \"height\": 112, \"resized\": [112, 112], "
      "\"grid\": [4, 4], \"tokens\": 16}\n"
      "]\n");
}

TEST(GridReport, NamesAreEscapedAndLargeCountsExact) {
  // 8192 x 8192 pixels at patch 1, merge 1: 2^26 tokens, written whole (not as 6.7e+07).
  const std::vector<GridReportEntry> entries = {
      {"a\"b\\c\td\xff.png", 8192, 8192, {8192, 8192, 8192, 8192}}};
  const json j = json::parse(gridReport(entries));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["file"], "a\"b\\c\td\xEF\xBF\xBD.png");
  EXPECT_EQ(j[0]["tokens"].get<long long>(), 67108864LL);
  EXPECT_EQ(j[0]["resized"], json({8192, 8192}));
}
