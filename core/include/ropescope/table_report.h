// A small table (named columns, rows of numbers or text) written as CSV or JSON: the data behind
// a figure, in the same shortest-round-trip number format as the other reports.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "ropescope/report.h"

namespace ropescope {

using TableCell = std::variant<double, long long, std::string>;

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<TableCell>> rows;  // each row has columns.size() cells
};

// CSV: a header line, then one line per row (text quoted when it holds a comma or quote).
// JSON: {"columns": [...], "rows": [{column: value, ...}, ...]} plus `title` when not empty.
// Throws InputError when a row's length differs from the column count.
std::string tableReport(const Table& table, TableFormat format, const std::string& title = {});

}  // namespace ropescope
