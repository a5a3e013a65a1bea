// Comparing the position_ids a model computed (dumped from transformers) with the family's
// get_rope_index under a rule set, token by token: what `ropescope check-ids` prints and the
// GUI's Tools → Check ids… shows (with the differing tokens highlighted).
#pragma once

#include <cstddef>
#include <optional>
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
// Every row of a dump: [3, N], [3, B, N], [4, N] or [4, B, N] (a padded batch: B rows of N, as
// transformers returns them). Throws InputError (field "position-ids") for another shape.
std::vector<std::vector<Id3>> dumpedPositionIdRows(const NpyNumbers& array,
                                                   const std::string& path);

// A dump of padded inputs has a column for every input_ids entry (Hugging Face gives padding
// position 1): it keeps the columns where `kept` (TokenInput::kept) is true, so it compares with
// the unpadded tokens. A dump of any other length is returned as it is.
std::vector<Id3> withoutPadding(std::vector<Id3> dump, const std::vector<bool>& kept);
// The columns withoutPadding leaves out: the ids the dump gives the padding (the release's pad
// position on every axis, 1 or 0); empty for a dump of another length.
std::vector<Id3> paddingOf(const std::vector<Id3>& dump, const std::vector<bool>& kept);

// What was dumped of one sequence (one row of a batch): its ids without the padding, and, when
// given, the rope_deltas transformers returned with them.
struct IdsDump {
  std::vector<Id3> ids;             // one per token kept (withoutPadding)
  std::optional<double> ropeDelta;  // the row's rope_deltas entry; nullopt: not compared
  std::vector<Id3> padding;         // the padding's ids (paddingOf); empty: not compared
  std::size_t paddedLength = 0;     // the row's length with padding; 0: ids.size()
  // A row of a batch: every row's layout (a release may raise on the batch as a whole,
  // batchRaises); empty for one sequence.
  std::vector<Layout> batch;
};

struct IdsCheck {
  bool identical = false;  // equal under one of the rule sets checked
  // The lines check-ids prints, each ending in '\n': "identical (N tokens, RULES): matches
  // transformers RANGES", or per rule set checked the first differing token (or what that release
  // raises) and how many differ, then "matches transformers RANGES" or "matches no release".
  std::string report;
  // Tokens that differ under the first rule set checked; empty when identical or when that rule
  // set cannot compute the input.
  std::vector<std::size_t> differing;
  // The releases whose ids (and rope_deltas, when dumped) equal the dump, as "4.57.0-5.1.0 and
  // main before #48669"; empty when none.
  std::string matchingReleases;
};

// rope_deltas of `ids` (the ids of `scene`'s layout under rule set `rules`, a model family's
// design) as that release returns them for a row of `paddedLength` input_ids (padding included;
// up to 5.2 the padding counts, DeltaRule). A paddedLength of 0 or of the tokens kept:
// ids.ropeDelta.
double returnedRopeDelta(const Scene& scene, RuleSet rules, const PositionIds& ids,
                         std::size_t paddedLength);

// Every rule set that stands for a release of the family, one per release class (the first
// release of each), and for Qwen2.5-VL hf-main (main after #48669): check-ids --rules all.
std::vector<RuleSet> everyReleaseClass(const std::string& family);

// Compares `dump` with the ids of `scene` (its design must be a model family's) under each rule
// set of `checked`, and names every release that gives the same ids (and rope_deltas, as that
// release returns them: padded length counted or not; and the padding's positions, 1 or 0,
// when the dump has them). `tokenIds` (input_ids, may be empty) name
// the token in the report. Throws InputError (field "position-ids") naming `path` when the
// dump's token count is not the layout's.
IdsCheck checkPositionIds(const Scene& scene, const IdsDump& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path);
// The same without rope_deltas.
IdsCheck checkPositionIds(const Scene& scene, const std::vector<Id3>& dump,
                          const std::vector<RuleSet>& checked,
                          const std::vector<long long>& tokenIds, const std::string& path);

}  // namespace ropescope
