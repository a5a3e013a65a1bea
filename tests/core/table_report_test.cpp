// The figure-data table writer: CSV quoting, JSON shape, exact numbers, row-length check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/report.h"
#include "ropescope/table_report.h"

using namespace ropescope;

namespace {

Table sample() {
  Table t;
  t.columns = {"design", "title", "ptd", "n"};
  t.rows.push_back({std::string("hard"), std::string("Hard (1-D)"), 20.0 / 9.0, 9LL});
  t.rows.push_back({std::string("x"), std::string("a, \"b\""), 0.1, -3LL});
  return t;
}

}  // namespace

TEST(TableReport, CsvQuotesTextWithCommasAndKeepsNumbersExact) {
  const std::string csv = tableReport(sample(), TableFormat::Csv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "design,title,ptd,n");
  EXPECT_NE(csv.find("x,\"a, \"\"b\"\"\",0.1,-3\n"), std::string::npos) << csv;
  const auto line =
      csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n') - 1);
  const auto third = line.substr(line.find("1-D),") + 5);
  EXPECT_EQ(std::strtod(third.c_str(), nullptr), 20.0 / 9.0);  // shortest round trip
}

TEST(TableReport, JsonHasColumnsRowsAndTitle) {
  const auto j = nlohmann::json::parse(tableReport(sample(), TableFormat::Json, "ptd: PTD"));
  EXPECT_EQ(j.at("title"), "ptd: PTD");
  EXPECT_EQ(j.at("columns").size(), 4u);
  ASSERT_EQ(j.at("rows").size(), 2u);
  EXPECT_EQ(j.at("rows")[0].at("ptd").get<double>(), 20.0 / 9.0);
  EXPECT_EQ(j.at("rows")[1].at("title"), "a, \"b\"");
  EXPECT_EQ(j.at("rows")[1].at("n").get<long long>(), -3);
}

TEST(TableReport, ARowOfTheWrongLengthIsRefused) {
  Table t = sample();
  t.rows.push_back({1.0});
  try {
    tableReport(t, TableFormat::Csv);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("row 2 has 1 cells (expected 4)"), std::string::npos)
        << e.what();
  }
}

// An undefined value (PTD of a layout without visual tokens) is an empty CSV cell and JSON null,
// never "nan" or 0.
TEST(TableReport, UndefinedValuesAreEmptyCellsAndNull) {
  Table t;
  t.columns = {"design", "ptd", "n"};
  t.rows.push_back({std::string("hard"), std::nan(""), 5LL});
  const std::string csv = tableReport(t, TableFormat::Csv);
  EXPECT_EQ(csv, "design,ptd,n\nhard,,5\n");
  const auto j = nlohmann::json::parse(tableReport(t, TableFormat::Json));
  EXPECT_TRUE(j.at("rows")[0].at("ptd").is_null());
}

// Every CSV writer's number cell (ids, ptd, bias, decay, freqs, tables): undefined values are
// empty (a hunt found "nan" and "-nan" in ptd and decay CSV where JSON said null), and whole
// numbers keep integer digits at any size below 2^53 ("1e+05" and "2e+05" broke int()).
TEST(TableReport, CsvNumbersAreEmptyWhereUndefinedAndWholeWhereWhole) {
  EXPECT_EQ(csvNumber(std::nan("")), "");
  EXPECT_EQ(csvNumber(-std::nan("")), "");
  EXPECT_EQ(csvNumber(INFINITY), "");
  EXPECT_EQ(csvNumber(-INFINITY), "");
  EXPECT_EQ(csvNumber(100000.0), "100000");
  EXPECT_EQ(csvNumber(-200000.0), "-200000");
  EXPECT_EQ(csvNumber(9007199254740991.0), "9007199254740991");
  EXPECT_EQ(csvNumber(0.0), "0");
  EXPECT_EQ(csvNumber(-0.0), "-0");  // the sign kept, as formatDouble writes it
  EXPECT_EQ(csvNumber(0.1), "0.1");
  EXPECT_EQ(csvNumber(1e20), formatDouble(1e20));
  EXPECT_EQ(std::strtod(csvNumber(1.0 / 3).c_str(), nullptr), 1.0 / 3);
}
