// The transformers releases ropescope reproduces and, per model family, how each release's
// get_rope_index (and processor) behaves: one table (core/src/families/release_table.cpp), from
// which the rule-set names, their help text, their validation and docs/families.md come. The
// boundaries were found by executing every release's own code (the transformers oracle's
// CLASSES.md) and are verified by the golden vectors of tests/golden/data/hf_ids_golden.jsonl.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/layout.h"

namespace ropescope {

// Where a vision block's tokens go and where the text after it starts.
enum class BlockPlacement {
  Legacy,        // (s + t_rel(k), s + r, s + c); text after at max(block) + 1 (s = max + 1)
  ConstantTime,  // #43972 (5.3.0): t = s * time_interval for every token, h = s + n / (W'T'),
                 // w = s + n mod W'; text after at s + max(H', W') (issue #45381)
  GridFixed      // #45400 (5.6.0): (s + t_rel(k), s + r, s + c); text after at s + max(H', W')
};

// Qwen2.5-VL: a video's t_rel(k) from seconds per grid (spg) and tokens_per_second (tps).
enum class SecondsRule {
  FloatStep,     // 4.49.0-4.51.3: long(f32(k * spg) * tps)
  WholeSeconds,  // 4.52.0 on (#37597): k * int(spg) * tps
  Float32,       // after #48669 (not in a release yet): trunc(f32(k) * f32(tps * spg))
  Unused         // the families whose videos do not count seconds
};

// rope_deltas as a release returns them for a padded input.
enum class DeltaRule {
  PaddedLength,   // max + 1 - len(input_ids), padding counted (up to 5.2.x)
  ClampedPadded,  // Qwen2-VL 5.2.0 (#43952): max(max + 1 - len(input_ids), 0)
  UnpaddedLength  // 5.3.0 on, and the omni families always: max + 1 - tokens kept
};

// What a release does that ropescope computes.
struct ReleaseRules {
  BlockPlacement block = BlockPlacement::Legacy;
  SecondsRule seconds = SecondsRule::WholeSeconds;
  bool imagesTakeSeconds = false;  // Qwen2.5-VL 5.3.0-5.5.3 (#45325): images draw an spg too
  // Where the release raises instead of giving ids: on a video of more than one temporal patch.
  enum class Raises { Never, MultiFrameVideo } raises = Raises::Never;
  std::string raisedError;  // "StopIteration"
  std::string raisedWhy;    // "#44474, fixed in 5.4.0"
  DeltaRule delta = DeltaRule::PaddedLength;
  int padPosition = 1;              // the position ids of padding tokens (1, from 5.2.0 0)
  bool gridsRestartPerRow = false;  // GLM-4.1V 4.53.0-4.53.1: every row of a batch starts again
                                    // at the batch's first image / video grid (#39172)
  bool outerVisionMarks = false;    // Qwen3-VL / Qwen3.5 5.10.1 on (#45493): the processor keeps
                                    // the template's outer <vision_start> ... <vision_end>
  // GLM-4.1V, every release: get_rope_index groups the tokens into runs of one modality and
  // gives each image run, and each video frame run, the positions of its grid, whatever the run's
  // length; the positions are laid over the tokens in order (a shape mismatch raises where their
  // totals differ). The processors of 4.53.0-5.9.0 write an image before a video with that
  // video's frame tokens: the ids are still those of the grids (tokens_file.h, TokenReading).
  bool runsTakeGrids = false;
  bool operator==(const ReleaseRules&) const = default;
};

// Releases of one family that behave alike.
struct ReleaseClass {
  std::string first;  // first release of the class ("4.45.0")
  std::string pr;     // the transformers PR that changed the behaviour ("#43972"; "" at the start)
  std::string what;   // one line
  ReleaseRules rules;
};

// Every transformers release ropescope knows, in release order: "4.45.0" ... "5.15.0" (the
// 5.0.0 release candidates included, 5.10.0 never released), then "main" (commit 3cd1a23 of
// 2026-08-21, before PR #48669).
const std::vector<std::string>& transformersReleases();
// The release's place in transformersReleases(); nullopt for an unknown label.
std::optional<std::size_t> releaseIndex(const std::string& release);

// The classes of a family (model family name, "qwen2.5-vl"), in release order; the first class's
// `first` is the release where the family appeared.
const std::vector<ReleaseClass>& releaseClasses(const std::string& family);

// A rule set resolved for one family: a release (or a named set) and what it does.
struct ResolvedRules {
  std::string release;      // "5.5.4", "main", or for hf-main "main after #48669"
  const ReleaseClass* cls;  // the class of the release
  ReleaseRules rules;       // cls->rules, with hf-main's #48669 applied
};

// The rules of `ruleSet` (an index of ruleSetNames(), model_family.h) for `family`. Throws
// InputError (field "rules") when the family did not exist in that release.
ResolvedRules resolveRules(const std::string& family, std::size_t ruleSet);

// "4.57.0-5.1.0" style: the releases of `family` whose class is `cls`.
std::string releaseRange(const std::string& family, const ReleaseClass& cls);

// Where the release raises on a whole batch although each row alone would not (`rows` are the
// rows' layouts; returns the one-line message, or ""): Qwen2.5-VL 5.3.0-5.5.3 (#45325) draws
// every row's vision groups, images included, from one second_per_grid_ts iterator over the
// batch's videos, so a batch with an image and a video raises StopIteration; GLM-4.1V
// 4.53.0-4.53.1 starts every row at the batch's first grids, which raises RuntimeError where the
// token counts then disagree (and, where they agree, gives ids ropescope does not model: said
// so too).
std::string batchRaises(const ResolvedRules& rules, const std::string& family,
                        const std::vector<Layout>& rows);

// The table as docs/families.md#releases shows it (a test keeps the two equal): per family, one
// row per class: releases, first release, PR, what it does.
std::string releaseTableMarkdown();

// rope_deltas as the release returns them: `maxId` the largest position id, `tokens` the tokens
// kept, `paddedLength` the row's length with padding.
double ropeDeltaAsReturned(const ReleaseRules& rules, double maxId, std::size_t tokens,
                           std::size_t paddedLength);

}  // namespace ropescope
