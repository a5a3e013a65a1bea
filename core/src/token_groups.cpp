// Token groups: names, membership and the check that a pair's groups are disjoint.
#include "ropescope/token_groups.h"

#include "ropescope/errors.h"

namespace ropescope {

const char* tokenGroupName(TokenGroup g) {
  switch (g) {
    case TokenGroup::Text:
      return "text";
    case TokenGroup::Visual:
      return "visual";
    case TokenGroup::Image:
      return "image";
    case TokenGroup::Video:
      return "video";
    case TokenGroup::Audio:
      return "audio";
  }
  return "?";
}

TokenGroup parseTokenGroup(const std::string& name, const std::string& field) {
  std::string names;
  for (TokenGroup g : kTokenGroups) {
    if (name == tokenGroupName(g)) return g;
    names += (names.empty() ? "" : ", ") + std::string(tokenGroupName(g));
  }
  throw InputError("--" + field + " must be one of " + names + " (got \"" + name + "\")", field);
}

bool inGroup(Modality m, TokenGroup g) {
  switch (g) {
    case TokenGroup::Text:
      return m == Modality::Text;
    case TokenGroup::Visual:
      return m == Modality::Image || m == Modality::Video;
    case TokenGroup::Image:
      return m == Modality::Image;
    case TokenGroup::Video:
      return m == Modality::Video;
    case TokenGroup::Audio:
      return m == Modality::Audio;
  }
  return false;
}

std::vector<std::size_t> groupIndices(const PositionIds& ids, TokenGroup g) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ids.tokens.size(); ++i)
    if (inGroup(ids.tokens[i].modality, g)) out.push_back(i);
  return out;
}

void checkGroupPair(const GroupPair& p) {
  for (Modality m : {Modality::Text, Modality::Image, Modality::Video, Modality::Audio})
    if (inGroup(m, p.from) && inGroup(m, p.to))
      throw InputError(std::string("--from ") + tokenGroupName(p.from) + " and --to " +
                           tokenGroupName(p.to) +
                           " share tokens; give two groups without common tokens (text, image, "
                           "video, audio; visual = image and video)",
                       "to");
}

}  // namespace ropescope
