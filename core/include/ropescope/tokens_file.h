// A processor output as a user saves it from Python,
//   json.dump({k: v.tolist() for k, v in inputs.items()}, f)
// read into the token sequence and the grids, and turned into the Layout whose segments are the
// model's real token sequence (special tokens and timestamp text included).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/model_config.h"

namespace ropescope {

struct TokenInput {
  std::vector<std::int64_t> inputIds;  // padding (attention_mask 0) dropped
  std::vector<int> mmTokenTypes;       // 0 text, 1 image, 2 video, 3 audio; empty: not in the file
  std::vector<std::array<long long, 3>> imageGrids;  // image_grid_thw (ViT grids, before merge)
  std::vector<std::array<long long, 3>> videoGrids;  // video_grid_thw
  std::vector<double> secondsPerGrid;  // second_per_grid_ts (omni: video_second_per_grid)
  // Omni: mel frames per audio, feature_attention_mask.sum(-1) or audio_feature_lengths; empty:
  // not given.
  std::vector<long long> audioFeatureLengths;
  std::size_t paddingDropped = 0;  // tokens whose attention_mask was 0
  std::vector<bool> kept;          // per input_ids entry, padding included: attention_mask 1
  bool operator==(const TokenInput&) const = default;
};

// Largest tokens file read. pixel_values makes real files large; it is skipped while parsing
// (never held in memory), so only the time to read it counts.
inline constexpr std::uintmax_t kMaxTokensFileBytes = std::uintmax_t{2} << 30;

// A processor output of several prompts (input_ids [B, N], a padded batch): one TokenInput per
// row, each with its own tokens and, once splitBatchRows has run, its own grids (transformers
// concatenates every row's image_grid_thw, video_grid_thw, second_per_grid_ts and audio lengths,
// in row order).
using TokenRows = std::vector<TokenInput>;

// Reads the keys ropescope needs (input_ids, attention_mask, mm_token_type_ids,
// image_grid_thw, video_grid_thw, second_per_grid_ts; for omni models video_second_per_grid,
// feature_attention_mask, audio_feature_lengths) and skips all others. input_ids is [N]
// or [1, N] (a batch of one). Throws InputError (field "tokens") with one line naming the file,
// the key and the problem (not JSON, a wrong shape or type, a batch of several sequences,
// values out of range, a missing input_ids).
// A file whose name ends in .npz is read as np.savez writes a BatchFeature (one .npy per key,
// int64 or float, stored uncompressed); any other as JSON.
TokenInput readTokensFile(const std::string& path);
// The same over the file's text; messages start with `what`.
TokenInput tokensFromJson(std::string_view text, const std::string& what = "tokens data");
// Every row of a file or text: input_ids [N], [1, N] or [B, N] (attention_mask and
// mm_token_type_ids of the same shape); each row holds the whole batch's grids until
// splitBatchRows gives it its own.
TokenRows readTokenRows(const std::string& path);
TokenRows tokenRowsFromJson(std::string_view text, const std::string& what = "tokens data");
// How layoutFromTokens reads a run of image or video tokens whose length disagrees with its grid.
// Where the release table says get_rope_index gives each run its grid's positions
// (ReleaseRules::runsTakeGrids: GLM-4.1V), the layout is the grids' (each such run becomes its
// grid's block, the text runs stay) when the totals agree, with one warning; where they differ,
// transformers raises and so does the reader, naming the release. Other families refuse the run.
struct TokenReading {
  // The rule set (an index of model_family.h ruleSetNames()) whose get_rope_index reads the
  // tokens; messages name its release. nullopt: none named (they speak of every release where
  // the family's releases agree, else of the default set's).
  std::optional<std::size_t> rules;
  // Receives the warning (a run that disagrees with its grid, read as transformers reads it);
  // nullptr: not kept.
  std::vector<std::string>* warnings = nullptr;
};

// Gives each row the grids, seconds per grid and audio lengths its tokens take, in row order.
// Throws InputError (field "tokens") naming the row when a row's tokens and the grids disagree
// or grids are left over.
TokenRows splitBatchRows(TokenRows rows, const ModelConfig& model,
                         const TokenReading& reading = {});

// The layout of the token sequence under the model: every token of input_ids is in one segment,
// in order. Image and video token runs (by mm_token_type_ids when the file has them, else by the
// model's token ids) become Image / Video segments with LLM grids H/m x W/m; a Qwen2/2.5-VL or
// ERNIE video is one segment (ERNIE: T/2 frames), with second_per_grid_ts as secondsPerGrid; a
// Qwen3-VL / Qwen3.5 / GLM video is one Video segment per frame (frames = 1, videoItem = its
// video_grid_thw entry). Other tokens are Text runs: the model's special tokens with
// TextRole::Special, frame timestamps with TextRole::Timestamp. Throws InputError (field
// "tokens") naming the block and both counts when tokens and grids disagree.
// The grids a layout took (a row of a batch takes the first ones of what is left).
struct GridUse {
  std::size_t images = 0, videos = 0, audios = 0;
};
// With `used`, grids left over are not refused (they belong to the batch's next rows) and the
// counts taken are returned there.
Layout layoutFromTokens(const TokenInput& input, const ModelConfig& model, GridUse* used = nullptr,
                        const TokenReading& reading = {});

// A grid_thw row as messages write it: "[t, h, w]".
std::string gridThwText(const std::array<long long, 3>& grid);

// layoutFromTokens for an omni family (omni_tokens_layout.cpp): <|AUDIO|> runs become Audio
// segments; a video with its sound ("<|vision_bos|><|audio_bos|>" ... "<|audio_eos|>
// <|vision_eos|>", use_audio_in_video) becomes its frames v1x<H>x<W>#K and audio pieces a<N>#K
// in token order (layout.h); the bos/eos tokens are Special text. Throws InputError (field
// "tokens") when the audio blocks and feature_attention_mask's rows, or a video's tokens and its
// grid, disagree, or a chunk cuts a frame.
Layout omniLayoutFromTokens(const TokenInput& input, const ModelConfig& model,
                            GridUse* used = nullptr);

}  // namespace ropescope
