#include "ropescope/grid_report.h"

#include "json_lines.h"

namespace ropescope {

std::string gridReport(const std::vector<GridReportEntry>& entries) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GridReportEntry& e : entries)
    list.push_back({{"file", e.file},
                    {"width", e.width},
                    {"height", e.height},
                    {"resized", {e.grid.resizedHeight, e.grid.resizedWidth}},
                    {"grid", {e.grid.rows, e.grid.cols}},
                    {"tokens", e.grid.tokens()}});
  return jsonOneMemberPerLine(list);
}

}  // namespace ropescope
