#include "ropescope/grid_report.h"

#include "json_lines.h"
#include "ropescope/layout_files.h"

namespace ropescope {

std::string gridReport(const std::vector<GridReportEntry>& entries) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GridReportEntry& e : entries) {
    nlohmann::ordered_json row = {{"file", e.file},
                                  {"width", e.width},
                                  {"height", e.height},
                                  {"resized", {e.grid.resizedHeight, e.grid.resizedWidth}},
                                  {"grid", {e.grid.rows, e.grid.cols}},
                                  {"tokens", e.grid.tokens()}};
    if (e.frames > 1) {
      const int patches = temporalPatches(e.frames);
      row["frames"] = e.frames;
      row["temporal_patches"] = patches;
      row["video_tokens"] = static_cast<long long>(patches) * e.grid.tokens();
    }
    list.push_back(std::move(row));
  }
  return jsonOneMemberPerLine(list);
}

}  // namespace ropescope
