// A report as a grid of ready-written cells, for a view that shows it as it is (the desktop
// app's budget and principles tabs): lines of named quantities, one cell per column, each cell
// its text, "n/a" with the reason where the value is undefined (never 0), and a verdict mark on
// the lines that are one. Written out as CSV, one row per cell.
#pragma once

#include <string>
#include <vector>

#include "ropescope/table_report.h"

namespace ropescope {

struct GridCell {
  std::string text;       // the value as the CLI's text report writes it; "n/a" when undefined
  std::string undefined;  // why the value is undefined; empty when it is defined
  std::string verdict;    // "pass" | "fail" | "n/a" on a verdict line; empty elsewhere
  std::string note;       // what the value means or how it was found (a tooltip); may be empty
};

struct GridLine {
  std::string name;
  std::vector<GridCell> cells;  // one per column of the grid
  bool verdict = false;         // a principle's verdict (its cells carry pass, fail or n/a)
};

struct ReportGrid {
  std::vector<std::string> columns;
  std::vector<GridLine> lines;
};

// A cell for a defined value and one for an undefined value (text "n/a").
GridCell gridValue(std::string text, std::string note = {});
GridCell gridUndefined(std::string reason);

// The grid as a table, one row per cell: quantity, column, value (empty when undefined), verdict
// and the reason it is undefined; CSV or JSON through tableReport.
Table gridTable(const ReportGrid& grid);

}  // namespace ropescope
