// The JSON `ropescope grid` prints: per picture its file, its size, the size smart_resize gives
// it, its LLM grid and token count, one picture per line (see json_lines.h).
#pragma once

#include <string>
#include <vector>

#include "ropescope/image_grid.h"

namespace ropescope {

struct GridReportEntry {
  std::string file;
  int width = 0, height = 0;  // as displayed (image_probe.h)
  ImageGrid grid;
};

// [{"file": ..., "width": W, "height": H, "resized": [h, w], "grid": [rows, cols],
//   "tokens": N}, ...]
std::string gridReport(const std::vector<GridReportEntry>& entries);

}  // namespace ropescope
