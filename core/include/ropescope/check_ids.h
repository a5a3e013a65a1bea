// Comparing the position_ids a model computed (dumped from transformers) with the family's
// get_rope_index under a rule set, token by token: what `ropescope check-ids` prints and the
// GUI's Tools → Check ids… shows (with the differing tokens highlighted).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/position_ids.h"
#include "ropescope/scene.h"

namespace ropescope {

// (t, h, w) per token of a dump: [3, N], [3, 1, N], or [4, N] / [4, 1, N] whose first row is
// the text positions of the v5 generation ids. Throws InputError (field "position-ids") naming
// `path` for another shape, a batch of several sequences or a non-finite value.
std::vector<Id3> dumpedPositionIds(const NpyNumbers& array, const std::string& path);
// The same read from a .npy file (int64 or float).
std::vector<Id3> readPositionIdsDump(const std::string& path);

// A dump of padded inputs has a column for every input_ids entry (Hugging Face gives padding
// position 1): it keeps the columns where `kept` (TokenInput::kept) is true, so it compares with
// the unpadded tokens. A dump of any other length is returned as it is.
std::vector<Id3> withoutPadding(std::vector<Id3> dump, const std::vector<bool>& kept);

struct IdsCheck {
  bool identical = false;  // equal under one of the rule sets checked
  // The lines check-ids prints, each ending in '\n': "identical (N tokens, RULES)" (and which
  // rule sets not checked give the same ids), or per rule set checked the first differing token
  // and how many differ, then which rule set the dump matches, if any.
  std::string report;
  // Tokens that differ under the first rule set checked; empty when identical or when that rule
  // set cannot compute the input.
  std::vector<std::size_t> differing;
};

// Compares `dump` with the ids of `scene` (its design must take the "rules" parameter: a model
// family) under each rule set of `checked`. `tokenIds` (input_ids, may be empty) name the
// token in the report. Throws InputError (field "position-ids") naming `path` when the dump's
// token count is not the layout's.
IdsCheck checkPositionIds(const Scene& scene, const std::vector<Id3>& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path);

}  // namespace ropescope
