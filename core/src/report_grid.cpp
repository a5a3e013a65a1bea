// A report's grid of written cells and its table (report_grid.h).
#include "ropescope/report_grid.h"

#include <utility>

namespace ropescope {

GridCell gridValue(std::string text, std::string note) {
  GridCell c;
  c.text = std::move(text);
  c.note = std::move(note);
  return c;
}

GridCell gridUndefined(std::string reason) {
  GridCell c;
  c.text = "n/a";
  c.undefined = std::move(reason);
  return c;
}

Table gridTable(const ReportGrid& grid) {
  Table t;
  t.columns = {"quantity", "column", "value", "verdict", "undefined"};
  for (const GridLine& line : grid.lines)
    for (std::size_t i = 0; i < line.cells.size() && i < grid.columns.size(); ++i) {
      const GridCell& c = line.cells[i];
      t.rows.push_back({line.name, grid.columns[i], c.undefined.empty() ? c.text : std::string(),
                        c.verdict, c.undefined});
    }
  return t;
}

}  // namespace ropescope
