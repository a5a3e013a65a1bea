// The token -> pixel map (pixel_map.h) as CSV or JSON, one row or object per visual token, for
// `ropescope pixels` and anyone who paints an attention row back on the picture.
#pragma once

#include <string>
#include <vector>

#include "ropescope/pixel_map.h"
#include "ropescope/report.h"

namespace ropescope {

// Columns: token, segment, frame, row, col, tile, thumbnail, x0, y0, x1, y1, first_frame,
// last_frame, width, height. tile is empty (CSV) / null (JSON) for a picture that is not tiled;
// thumbnail is 0/1 (CSV), false/true (JSON). JSON: {"cells": [...], "count": N}. Npy is refused.
std::string pixelMapReport(const std::vector<PixelCell>& cells, TableFormat format);

}  // namespace ropescope
