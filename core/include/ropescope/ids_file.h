// Bring your own ids: position ids read from a .npy file are the design "ids-file", measured,
// drawn and exported like any built-in design. The layout (or tokens file) says what each token
// is; the file says where it sits.
#pragma once

#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/position_ids.h"

namespace ropescope {

class PositionDesign;

// The design's name in scenes and on the command line.
inline constexpr const char* kIdsFileDesign = "ids-file";

// The design object (name, title, no parameters). Its ids() refuses: the ids live in the scene
// (Scene::fileIds); effectiveIds (scene_metrics.h) takes them from there.
const PositionDesign& idsFileDesign();

// Reads (t, h, w) per token from a .npy of shape [N, 3] or [3, N] (a [3, 3] file is read as
// [N, 3]: one row per token), any float or integer dtype. Throws InputError with one line naming
// the file for: a bad .npy, another shape, no tokens, a NaN or infinite value or one beyond
// kMaxIdMagnitude (naming the token), or more than kMaxIdTokens tokens.
inline constexpr std::size_t kMaxIdTokens = std::size_t{1} << 26;
// Every id is within +-kMaxIdMagnitude (2^53, below which every whole number is a double): a file
// of 1e300 ids overflowed the distances' squares and gave an undefined PTD without a reason.
inline constexpr double kMaxIdMagnitude = 9007199254740992.0;
std::vector<Id3> readIdsFile(const std::string& path);

// The ids of `ids` over `layout`'s tokens (modality, segment, frame, row, col as the layout
// gives them). Throws InputError naming both counts when they differ. rope_delta follows the
// M-RoPE rule: (largest id over the three axes + 1) - token count.
PositionIds idsFromFile(const Layout& layout, const std::vector<Id3>& ids, const std::string& path);

}  // namespace ropescope
