// The decay report (core/src/report.cpp): a long curve is formatted in ranges on several threads
// and the ranges joined; the text must be the one a plain serial loop writes in nlohmann's
// dump(2) layout, the same for every thread count, and read back bit-exact.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/report.h"

namespace {

using namespace ropescope;
using json = nlohmann::ordered_json;

std::vector<double> curve(int maxDistance) {
  return decayCurve(resolvePairs(FrequencySpec{}), {1, 1, 1}, maxDistance);
}

// One number as a JSON array element: whole numbers keep ".0", others the shortest round trip.
std::string jsonNumber(double v) {
  if (v == static_cast<double>(static_cast<long long>(v)))
    return std::to_string(static_cast<long long>(v)) + ".0";
  return formatDouble(v);
}

std::string serialJson(const std::vector<double>& bound) {
  std::string s = "{\n";
  for (const char* key : {"distance", "bound"}) {
    s += std::string(s.size() > 2 ? ",\n" : "") + "  \"" + key + "\": [";
    for (std::size_t i = 0; i < bound.size(); ++i)
      s += (i ? ",\n    " : "\n    ") +
           jsonNumber(key[0] == 'd' ? static_cast<double>(i) : bound[i]);
    s += bound.empty() ? "]" : "\n  ]";
  }
  return s + "\n}\n";
}

// Sizes below, at and above the point where the text is split between threads (4096 items a
// range), and one that does not divide evenly.
const int kMaxDistances[] = {1, 4094, 8191, 8192, 12289, 100000};

TEST(DecayReport, JsonIsTheSerialTextForAnyThreadCount) {
  for (int maxDistance : kMaxDistances) {
    const std::vector<double> bound = curve(maxDistance);
    const std::string expected = serialJson(bound);
    for (int threads : {1, 2, 3, 0})
      ASSERT_EQ(std::string(decayReport(bound, TableFormat::Json, threads).view()), expected)
          << maxDistance << " distances, " << threads << " threads";
    const json back = json::parse(decayReport(bound, TableFormat::Json, 2).view());
    ASSERT_EQ(back["bound"].size(), bound.size());
    for (std::size_t i = 0; i < bound.size(); ++i) {
      ASSERT_EQ(back["bound"][i].get<double>(), bound[i]) << i;  // shortest round trip
      ASSERT_EQ(back["distance"][i].get<double>(), static_cast<double>(i)) << i;
      ASSERT_TRUE(back["distance"][i].is_number_float()) << i;  // "3.0", read as a float
    }
  }
}

TEST(DecayReport, CsvRowsAreTheSameForAnyThreadCountAndReadBackExactly) {
  const std::vector<double> bound = curve(100000);
  const std::string one(decayReport(bound, TableFormat::Csv, 1).view());
  for (int threads : {2, 3, 0})
    ASSERT_EQ(std::string(decayReport(bound, TableFormat::Csv, threads).view()), one) << threads;
  std::istringstream in(one);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "distance,bound");
  std::size_t row = 0;
  while (std::getline(in, line)) {
    const std::size_t comma = line.find(',');
    ASSERT_NE(comma, std::string::npos) << line;
    ASSERT_EQ(std::stod(line.substr(0, comma)), static_cast<double>(row)) << line;
    ASSERT_EQ(std::stod(line.substr(comma + 1)), bound[row]) << line;
    ++row;
  }
  EXPECT_EQ(row, bound.size());
  // Distances as integers, 100000 too (a hunt found "1e+05" between 99999 and 100001: the
  // column did not read back with int()).
  EXPECT_NE(one.find("\n99999,"), std::string::npos);
  EXPECT_NE(one.find("\n100000,"), std::string::npos);
  EXPECT_EQ(one.find("e+"), std::string::npos);
}

TEST(DecayReport, AShortCurveIsLaidOutAsNlohmannDumpLaysItOut) {
  const std::vector<double> bound = curve(3);
  std::vector<double> distance{0, 1, 2, 3};
  EXPECT_EQ(std::string(decayReport(bound, TableFormat::Json).view()),
            json({{"distance", distance}, {"bound", bound}}).dump(2) + "\n");
  EXPECT_EQ(std::string(decayReport({}, TableFormat::Json).view()),
            json({{"distance", json::array()}, {"bound", json::array()}}).dump(2) + "\n");
  EXPECT_EQ(std::string(decayReport({}, TableFormat::Csv).view()), "distance,bound\n");
}

}  // namespace
