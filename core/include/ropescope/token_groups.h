// The token groups a metric measures between: PTD and the bias spread average over every pair
// (from-token, to-token) of two groups. The default pair, text -> visual, is the one the papers
// report; the omni models add audio, so any two disjoint groups can be measured.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/position_ids.h"

namespace ropescope {

enum class TokenGroup {
  Text,
  Visual,  // image and video tokens
  Image,
  Video,
  Audio
};

inline constexpr TokenGroup kTokenGroups[] = {
    TokenGroup::Text, TokenGroup::Visual, TokenGroup::Image, TokenGroup::Video, TokenGroup::Audio};
// The groups of the modality table: every modality once (visual = image + video is left out).
inline constexpr TokenGroup kModalityGroups[] = {TokenGroup::Text, TokenGroup::Image,
                                                 TokenGroup::Video, TokenGroup::Audio};

const char* tokenGroupName(TokenGroup g);  // "text", "visual", "image", "video", "audio"
// Throws InputError (field `field`) naming the accepted names when `name` is none of them.
TokenGroup parseTokenGroup(const std::string& name, const std::string& field);

bool inGroup(Modality m, TokenGroup g);
// Indices of the group's tokens, in token order.
std::vector<std::size_t> groupIndices(const PositionIds& ids, TokenGroup g);

// The two groups a metric runs between. Their tokens never overlap (checkGroupPair).
struct GroupPair {
  TokenGroup from = TokenGroup::Text;
  TokenGroup to = TokenGroup::Visual;
  bool isDefault() const { return from == TokenGroup::Text && to == TokenGroup::Visual; }
  bool operator==(const GroupPair&) const = default;
};

// Throws InputError (field "to") when the two groups share tokens (text -> text, image -> visual).
void checkGroupPair(const GroupPair& p);

}  // namespace ropescope
