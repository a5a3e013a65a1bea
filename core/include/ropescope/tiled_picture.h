// InternVL's dynamic tiling (InternVL 2.5 / 3 / 3.5): the tile grid a picture is cut into, chosen
// from its aspect ratio, the thumbnail, and the tokens each tile becomes after pixel shuffle.
#pragma once

namespace ropescope {

// The preprocessing settings that decide the tiles (InternVL's `dynamic_preprocess` arguments and
// the model config): min_num / max_num tiles (min_dynamic_patch, max_dynamic_patch: 1 and 12 in
// the released configs), the tile side force_image_size (448), the ViT patch (14) and the pixel
// shuffle that merges merge x merge patches into one token (downsample_ratio 0.5: merge 2), and
// use_thumbnail (true in the released configs).
struct TileSettings {
  int minTiles = 1;
  int maxTiles = 12;
  int tileSize = 448;
  int patch = 14;
  int merge = 2;
  bool thumbnail = true;

  // Tokens along one side of a tile: tileSize / patch / merge (16 for 448, 14, 2).
  int tokenSide() const { return tileSize / patch / merge; }
  bool operator==(const TileSettings&) const = default;
};

// Accepted ranges (validateTileSettings): 1 <= minTiles <= maxTiles <= kMaxTiles, and tileSize a
// multiple of patch * merge.
inline constexpr int kMaxTiles = 64;

// The tiles of one picture. cols x rows tiles of tileSize px cut, in row-major order, from the
// picture resized to cols*tileSize x rows*tileSize; then the thumbnail (the whole picture resized
// to tileSize x tileSize) when there is more than one tile and the settings use one.
struct TileGrid {
  int cols = 0;  // 0: not a tiled picture
  int rows = 0;
  bool thumbnail = false;
  int width = 0;  // the picture as given, pixels
  int height = 0;
  int tileSize = 0;
  int tokenSide = 0;  // tokens along one side of a tile
  int minTiles = 1;   // the settings' range it was chosen in (written back by the layout spec)
  int maxTiles = 12;

  bool tiled() const { return cols > 0; }
  int tileCount() const { return cols * rows + (thumbnail ? 1 : 0); }  // with the thumbnail
  bool operator==(const TileGrid&) const = default;
};

// InternVL's rule: among the grids (i, j) with minTiles <= i*j <= maxTiles, ordered by i*j, the
// one whose i/j is closest to width/height; on a tie the later one wins when width*height >
// 0.5 * tileSize^2 * i*j (find_closest_aspect_ratio). i is the tile columns, j the rows. Grids
// of equal i*j are visited by i then j here, in CPython's set order there: the two can differ
// only on an exact tie between two grids of the same tile count.
// Throws InputError (field "tiles") for a picture side < 1 or settings out of range.
TileGrid internvlTiles(long long width, long long height, const TileSettings& settings = {});

// Throws InputError naming the field and its accepted range.
void validateTileSettings(const TileSettings& settings);

}  // namespace ropescope
