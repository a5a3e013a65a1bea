// Positional read-outs of the causal attention preview: the visual share of each text position
// after the last picture ("visual fading", arXiv 2603.10863) and, per picture, where the text's
// attention lands in it (top-left, border, centre of mass, row trend; arXiv 2508.17807).
// Definitions: docs/user/attention.md#positional-read-outs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/position_ids.h"

namespace ropescope {

struct Scene;

// One picture (a visual segment: an image, or a video with all its frames) and where the
// attention of the text tokens after it lands in it. With A(k) the mean over the heads and
// those text queries r of the causal softmax P_h[r, k], and S = sum over the picture of A:
// every share below is (sum of A over the region) / S.
struct PictureReadout {
  std::string name;  // "picture 1", "picture 2", ... in layout order
  int segment = 0;   // the layout segment (TokenInfo::segment)
  Modality modality = Modality::Image;
  std::size_t firstToken = 0, lastToken = 0;  // its first and last token
  // The grid (largest TokenInfo frame, row, col + 1): frames are a video's frames or a tiled
  // picture's tiles, each with its own top-left cell and border.
  int frames = 1, rows = 1, cols = 1;
  std::size_t queries = 0;  // text tokens after lastToken
  // Why every number below is n/a ("" when they are defined): no text after the picture, or
  // its attention underflowed to 0.
  std::string undefined;
  double mass = 0.0;  // S: the mean share of a query's softmax on the picture
  // Region shares of S: the top-left cell (row 0, col 0; of every frame of a video), row 0,
  // col 0, and the border (row 0, the last row, col 0 or the last col).
  double topLeft = 0.0, topRow = 0.0, leftColumn = 0.0, border = 0.0;
  // The same shares under attention spread evenly over the picture's tokens (cells / tokens).
  double uniformTopLeft = 0.0, uniformTopRow = 0.0, uniformLeftColumn = 0.0, uniformBorder = 0.0;
  // Centre of mass: sum_k A(k) row(k) / (S (rows - 1)), and the same with col and cols - 1; 0 is
  // the top row (left col), 1 the last. n/a (nullopt) for a picture of one row (one col).
  std::optional<double> centreRow, centreCol;
  std::vector<double> rowShare;  // [rows]: the share of S in each row
  // The least-squares slope of rowShare against the row index (share per row; < 0: the top
  // rows get more). n/a for a picture of one row.
  std::optional<double> rowSlope;
};

struct AttentionReadouts {
  std::size_t tokens = 0;
  int heads = 0;
  // Visual fading: the text tokens after the last visual token, and at each the sum of the
  // causal softmax weights on every visual token, per head and the mean over heads.
  std::vector<std::size_t> fadingTokens;
  std::vector<std::vector<double>> fadingHead;  // [head][fading token]
  std::vector<double> fading;                   // [fading token]
  // The share under weights even over the keys a token sees: (visual tokens before r) / (r + 1).
  std::vector<double> fadingUniform;  // [fading token]
  // Why there is no curve ("" when there is one): no picture, or no text after the last one.
  std::string fadingUndefined;
  std::vector<PictureReadout> pictures;
  std::string picturesUndefined;  // "the layout has no picture or video" when empty
};

// The read-outs of `problem` (its q/k, ids and pair table; it must be causal) over the tokens
// `ids` describes (modality, segment and grid cell per token). The softmax rows come from the
// CPU backend with `threads` workers (0 = all cores), a block of rows at a time; only the rows
// of text tokens after the first picture are computed. Throws InputError when a logit leaves
// float32's range (logitOverflowMessage) or the problem is not causal.
AttentionReadouts attentionReadouts(const AttentionProblem& problem, const PositionIds& ids,
                                    int threads = 0);

// The scene's ids and plan with q/k from `source` (makeAttentionProblem, causal). Throws
// InputError for an invalid scene or bad q/k files.
AttentionReadouts sceneAttentionReadouts(const Scene& scene, const QkSourceSpec& source,
                                         int threads = 0);

}  // namespace ropescope
