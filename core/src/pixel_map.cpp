// The token -> pixel map. Qwen-style grids: token (r, c) covers resized pixels
// [c*F, (c+1)*F) x [r*F, (r+1)*F), F = patch * merge (smart_resize then a merge x merge patch
// merge: transformers Qwen2VLImageProcessor / Qwen3VL); tiled pictures: InternVL's
// dynamic_preprocess cuts the picture resized to cols*S x rows*S into S-px tiles and the pixel
// shuffle makes one token of each (S / side)-px square of a tile; the thumbnail is the whole
// picture resized to S x S.
#include "ropescope/pixel_map.h"

#include <map>
#include <string>

#include "ropescope/errors.h"

namespace ropescope {

std::vector<PixelCell> pixelMap(const Layout& layout, const PixelMapSettings& settings) {
  validateLayout(layout);
  validateImageGridSettings(settings.grid);
  if (settings.temporalPatch < 1 || settings.temporalPatch > kMaxTemporalPatch)
    throw InputError("temporal patch must be 1.." + std::to_string(kMaxTemporalPatch) + " (got " +
                         std::to_string(settings.temporalPatch) + ")",
                     "temporal_patch");
  const int factor = settings.grid.factor();
  const long long tp = settings.temporalPatch;
  std::vector<PixelCell> out;
  out.reserve(layout.visualCount());
  std::map<int, long long> patchesSeen;  // video item -> temporal patches before this segment
  std::size_t token = 0;
  for (std::size_t s = 0; s < layout.segments.size(); ++s) {
    const Segment& seg = layout.segments[s];
    if (!seg.isVisual()) {
      token += seg.tokenCount();
      continue;
    }
    const bool file = seg.source.isPicture();
    long long firstPatch = 0;
    if (seg.kind == SegmentKind::Video && seg.videoItem >= 0) {
      firstPatch = patchesSeen[seg.videoItem];
      patchesSeen[seg.videoItem] += seg.frames;
    }
    // Frames of the video before pairing, when known (a file); else every patch is full.
    const long long realFrames =
        seg.kind == SegmentKind::Video && file && seg.videoItem < 0 ? seg.source.frameCount : -1;
    for (int f = 0; f < seg.frames; ++f)
      for (int r = 0; r < seg.rows; ++r)
        for (int c = 0; c < seg.cols; ++c, ++token) {
          PixelCell p;
          p.token = token;
          p.segment = static_cast<int>(s);
          p.frame = f;
          p.row = r;
          p.col = c;
          if (seg.tiles.tiled()) {
            const TileGrid& g = seg.tiles;
            const double cell = static_cast<double>(g.tileSize) / g.tokenSide;
            p.width = g.width;
            p.height = g.height;
            p.tile = f;
            if (g.thumbnail && f == g.tileCount() - 1) {
              p.thumbnail = true;
              const double sx = static_cast<double>(g.width) / g.tileSize;
              const double sy = static_cast<double>(g.height) / g.tileSize;
              p.x0 = c * cell * sx;
              p.x1 = (c + 1) * cell * sx;
              p.y0 = r * cell * sy;
              p.y1 = (r + 1) * cell * sy;
            } else {
              const double sx = static_cast<double>(g.width) / (g.cols * g.tileSize);
              const double sy = static_cast<double>(g.height) / (g.rows * g.tileSize);
              const double left = (f % g.cols) * static_cast<double>(g.tileSize);
              const double top = (f / g.cols) * static_cast<double>(g.tileSize);
              p.x0 = (left + c * cell) * sx;
              p.x1 = (left + (c + 1) * cell) * sx;
              p.y0 = (top + r * cell) * sy;
              p.y1 = (top + (r + 1) * cell) * sy;
            }
            out.push_back(p);
            continue;
          }
          const int resizedW = file ? seg.source.resizedWidth : seg.cols * factor;
          const int resizedH = file ? seg.source.resizedHeight : seg.rows * factor;
          p.width = file ? seg.source.width : resizedW;
          p.height = file ? seg.source.height : resizedH;
          // The grid's own cell: resized size / grid (a file's grid came from the same factor).
          const double cw = static_cast<double>(resizedW) / seg.cols;
          const double ch = static_cast<double>(resizedH) / seg.rows;
          const double sx = static_cast<double>(p.width) / resizedW;
          const double sy = static_cast<double>(p.height) / resizedH;
          p.x0 = c * cw * sx;
          p.x1 = (c + 1) * cw * sx;
          p.y0 = r * ch * sy;
          p.y1 = (r + 1) * ch * sy;
          if (seg.kind == SegmentKind::Video) {
            const long long k = firstPatch + f;
            p.firstFrame = k * tp;
            p.lastFrame = k * tp + tp - 1;
            if (realFrames > 0 && p.lastFrame > realFrames - 1) p.lastFrame = realFrames - 1;
          }
          out.push_back(p);
        }
  }
  return out;
}

}  // namespace ropescope
