// Position ids of every token of a layout under one design: (t, h, w) doubles, plus what each
// token is. The output of a PositionDesign and the input of every metric and view.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace ropescope {

using Id3 = std::array<double, 3>;  // (t, h, w)

enum class Modality { Text, Image, Video, Audio };

// The space a design's distances are measured in (docs/math.md#distance).
enum class MetricSpace {
  Line,   // one index: hard, unordered, v2pe (the t component; h and w are copies)
  Plane,  // (h, w): the 2-D spatial illustration
  Space,  // (t, h, w)
  // VRoPE's four index maps: the stored (t, h, w) and h + w - t (axisCoordinate of Axis::Mix)
  FourMaps,
};

struct TokenInfo {
  Modality modality = Modality::Text;
  int segment = 0;
  // Grid cell of a visual token (frame, row, col); -1 for text tokens. An audio token keeps its
  // index within its audio run in `frame` (row = col = -1).
  int frame = -1;
  int row = -1;
  int col = -1;
};

struct PositionIds {
  std::string design;
  MetricSpace space = MetricSpace::Space;
  std::vector<Id3> ids;
  std::vector<TokenInfo> tokens;
  // Next decode id minus sequence length (Hugging Face `rope_deltas`).
  double ropeDelta = 0.0;

  std::size_t size() const { return ids.size(); }
  std::vector<std::size_t> textIndices() const;
  std::vector<std::size_t> visualIndices() const;  // image and video tokens
  std::vector<std::size_t> audioIndices() const;
  std::vector<std::size_t> indicesOf(Modality m) const;
};

const char* modalityName(Modality m);
const char* metricSpaceName(MetricSpace s);

}  // namespace ropescope
