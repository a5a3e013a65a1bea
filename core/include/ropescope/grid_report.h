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
  int frames = 1;  // an animated GIF or WebP: its frames (image_probe.h)
};

// [{"file": ..., "width": W, "height": H, "resized": [h, w], "grid": [rows, cols],
//   "tokens": N}, ...]: N = rows * cols, one picture's (or one temporal patch's) tokens. An
// animation (frames > 1) also gets "frames": F, "temporal_patches": T = ceil(F / 2) (frames
// paired as Qwen2-VL's processor does, layout_files.h) and "video_tokens": T * N, what it
// gives as a video (vid:ANIM.gif).
std::string gridReport(const std::vector<GridReportEntry>& entries);

}  // namespace ropescope
