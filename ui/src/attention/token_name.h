// How the attention views name a token in tooltips and captions: its index and, for a visual
// token, its modality, segment and cell.
#pragma once

#include <QString>

#include <cstddef>
#include <vector>

#include "ropescope/position_ids.h"

namespace ropescope::ui {

// "token 20 (image, segment 2, row 2, col 4)", "token 2 (text)"; a token not in `tokens` by its
// index alone.
QString attentionTokenName(const std::vector<TokenInfo>& tokens, std::size_t token);

}  // namespace ropescope::ui
