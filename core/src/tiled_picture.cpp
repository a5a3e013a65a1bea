// InternVL's dynamic tiling: the tile grid from the aspect ratio, as the InternVL model cards'
// `dynamic_preprocess` and `find_closest_aspect_ratio` compute it (OpenGVLab/InternVL,
// internvl_chat/internvl/train/dataset.py; the same code in every InternVL 2.5/3/3.5 card).
#include "ropescope/tiled_picture.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ropescope/errors.h"

namespace ropescope {

void validateTileSettings(const TileSettings& s) {
  if (s.minTiles < 1 || s.minTiles > kMaxTiles)
    throw InputError("min tiles must be 1.." + std::to_string(kMaxTiles) + " (got " +
                         std::to_string(s.minTiles) + ")",
                     "tiles");
  if (s.maxTiles < s.minTiles || s.maxTiles > kMaxTiles)
    throw InputError("max tiles must be " + std::to_string(s.minTiles) + ".." +
                         std::to_string(kMaxTiles) + " (got " + std::to_string(s.maxTiles) + ")",
                     "tiles");
  if (s.patch < 1 || s.merge < 1 || s.tileSize < 1 || s.tileSize % (s.patch * s.merge) != 0)
    throw InputError("tile size must be a positive multiple of patch x merge (got " +
                         std::to_string(s.tileSize) + ", patch " + std::to_string(s.patch) +
                         ", merge " + std::to_string(s.merge) + ")",
                     "tiles");
}

TileGrid internvlTiles(long long width, long long height, const TileSettings& s) {
  validateTileSettings(s);
  if (width < 1 || height < 1 || width > (1LL << 20) || height > (1LL << 20))
    throw InputError("picture size must be 1..1048576 pixels a side (got " + std::to_string(width) +
                         "x" + std::to_string(height) + ")",
                     "tiles");
  // The candidate grids in the order the processor visits them: sorted by the tile count; the
  // processor's set of (i, j) is sorted by i*j with Python's stable sort, and equal products
  // only tie when both aspect ratios are equally far from the picture's.
  std::vector<std::pair<int, int>> grids;
  for (int n = s.minTiles; n <= s.maxTiles; ++n)
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j)
        if (i * j >= s.minTiles && i * j <= s.maxTiles &&
            std::find(grids.begin(), grids.end(), std::make_pair(i, j)) == grids.end())
          grids.push_back({i, j});
  std::stable_sort(grids.begin(), grids.end(), [](const auto& a, const auto& b) {
    return a.first * a.second < b.first * b.second;
  });
  const double aspect = static_cast<double>(width) / static_cast<double>(height);
  const double area = static_cast<double>(width) * static_cast<double>(height);
  double bestDiff = std::numeric_limits<double>::infinity();
  std::pair<int, int> best{1, 1};
  for (const auto& [i, j] : grids) {
    const double diff = std::abs(aspect - static_cast<double>(i) / static_cast<double>(j));
    if (diff < bestDiff) {
      bestDiff = diff;
      best = {i, j};
    } else if (diff == bestDiff &&
               area > 0.5 * s.tileSize * s.tileSize * static_cast<double>(i) * j) {
      best = {i, j};
    }
  }
  TileGrid g;
  g.cols = best.first;
  g.rows = best.second;
  g.thumbnail = s.thumbnail && g.cols * g.rows != 1;
  g.width = static_cast<int>(width);
  g.height = static_cast<int>(height);
  g.tileSize = s.tileSize;
  g.tokenSide = s.tokenSide();
  g.minTiles = s.minTiles;
  g.maxTiles = s.maxTiles;
  return g;
}

}  // namespace ropescope
