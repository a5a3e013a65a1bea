// The token -> pixel map: for every visual token of a layout, the rectangle of the picture (in
// the picture's own pixels) and the frames it covers, as the model's processor cut them.
#pragma once

#include <cstddef>
#include <vector>

#include "ropescope/image_grid.h"
#include "ropescope/layout.h"

namespace ropescope {

// What decides the rectangles besides the layout: the image grid's factor (patch x merge, the
// resized pixels one token covers: 28 for Qwen2/2.5-VL, 32 for Qwen3-VL) and the frames one
// temporal patch pairs (temporal_patch_size, 2 in every Qwen and GLM processor). A tiled
// picture's segment carries its own tile grid.
struct PixelMapSettings {
  ImageGridSettings grid;
  int temporalPatch = 2;
};
inline constexpr int kMaxTemporalPatch = 64;

// One visual token. Rectangles are half-open, [x0, x1) x [y0, y1), in the pixels of the picture
// as given (the file's size; a plain grid i<H>x<W> is taken as its resized picture, H*factor x
// W*factor, since there is no file). A rectangle edge that falls inside a pixel is fractional:
// the resize maps the token's resized pixels back by width / resized width.
struct PixelCell {
  std::size_t token = 0;  // index in the layout's token sequence
  int segment = 0;
  int frame = 0, row = 0, col = 0;  // the token's grid cell (TokenInfo), frame = tile if tiled
  int tile = -1;                    // tiled pictures: the tile in row-major order; -1 otherwise
  bool thumbnail = false;           // tiled pictures: the thumbnail's tokens
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  // The source frames the token covers, first..last (0..0 for a picture). A video's temporal
  // patch k pairs frames k*P .. k*P+P-1; the processor repeats the last frame to fill the last
  // patch, so with a known frame count the range stops at the last real frame.
  long long firstFrame = 0, lastFrame = 0;
  int width = 0, height = 0;  // the picture the rectangle is in
};

// Every visual token of `layout`, in token order. Throws InputError for a bad layout or
// settings (temporal patch 1..kMaxTemporalPatch, the grid's own ranges).
std::vector<PixelCell> pixelMap(const Layout& layout, const PixelMapSettings& settings = {});

}  // namespace ropescope
