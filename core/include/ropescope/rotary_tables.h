// Reference tables for porting RoPE (`ropescope rotary`, docs/user/porting.md): what a model
// family's text rotary embedding forward in transformers returns (cos and sin, in the family's own
// layout), its inv_freq, and the rotation its apply function performs on q and k, written as a
// layout-free table. float32 values follow transformers' float32 operations in their order: the
// angle is float32(position id) * inv_freq (one rounded product: a matmul over one term), cos and
// sin of the float32 angle, times float32(attention_factor); q_embed = q * cos + rotate(q) * sin,
// each product rounded, then the sum. float64 tables are the same formulas in double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

class ModelFamily;
struct Scene;

// The layout of the cos / sin a rotary forward returns, R = the rotary dim (2 x pairs).
enum class CosLayout {
  // (3, 1, N, R): one slab per position axis t, h, w, every pair at that axis's id (the apply
  // function then picks chunked mrope sections): Qwen2-VL, Qwen2.5-VL, Qwen2.5-Omni, GLM-4.1V up
  // to transformers 5.0.0rc2.
  PerAxis,
  // (1, N, R): each pair at its own axis's id, pair p in dims p and p + R/2 (cat(freqs, freqs)):
  // Qwen3-VL, Qwen3.5, Qwen3-Omni, GLM-4.1V from 5.0.0rc3 (its apply function interleaves them),
  // and 1-D RoPE (Llama).
  Halves,
  // (1, N, R): each pair at its own axis's id, pair p in dims 2p and 2p + 1: ERNIE-4.5-VL.
  Pairs
};
const char* cosLayoutName(CosLayout layout);  // "per_axis", "halves", "pairs"

// What the tables look like: the cos layout and the position ids' shape.
struct RotaryFormat {
  CosLayout cos = CosLayout::Halves;
  int idAxes = 3;       // position_ids.npy (3, 1, N), or 1: (1, N) (a 1-D rotary, plan vanilla)
  std::string from;     // where the layout comes from, one line
  std::string family;   // the model family whose layout it is ("qwen2.5-vl"), "" for none
  std::string release;  // the transformers release of that layout ("4.57.1"), "" for none
};

// The layout transformers' text rotary forward of `family` returns at `release` (a
// transformersReleases() label, "4.57.1", "main"), when `spec` is the family's own rotary (plan
// and pair layout); otherwise, and without a family, ropescope's own: Halves (Pairs for GPT-J
// pairs) over the plan's axes, with 1-D ids for plan vanilla.
RotaryFormat rotaryFormat(const ModelFamily* family, const std::string& release,
                          const FrequencySpec& spec);

struct RotaryTables {
  std::size_t tokens = 0;
  int headDim = 0;
  int pairs = 0;  // rotary dim / 2
  PairLayout pairLayout = PairLayout::NeoX;
  RotaryFormat format;
  std::string ropeType = "default";
  double attentionFactor = 1.0;
  std::vector<Axis> axis;  // per pair

  // position_ids: [idAxes][tokens] (t, h, w; or t alone); integral unless a design gives
  // fractional ids (Qwen3-Omni, research designs).
  std::vector<double> positionIds;
  bool integerIds = true;
  std::vector<float> invFreq32;  // [pairs], transformers' float32 inv_freq
  std::vector<double> invFreq64;
  std::vector<std::size_t> cosShape;  // (3, 1, N, R) or (1, N, R)
  std::vector<float> cos, sin;        // C order, cosShape, times the attention factor
  std::vector<double> cos64, sin64;
  // out[t][m] = rotCos[t][m] * x[m] + rotSin[t][m] * x[rotPartner[m]]; partner -1: passed
  // through (rotCos 1, rotSin 0). [tokens][headDim] and [headDim].
  std::vector<float> rotCos, rotSin;
  std::vector<std::int64_t> rotPartner;
};

// Largest table (elements of cos) built: the CLI and Python refuse larger requests by it.
inline constexpr std::size_t kMaxRotaryTableValues = std::size_t{1} << 28;

// The tables of `ids` (one Id3 per token) under `spec`: resolvePairs(spec) (a spec without a
// rope scaling takes rope type default, whose float32 inv_freq transformers computes), in
// `format`. Throws InputError for a bad spec and for tables above kMaxRotaryTableValues.
RotaryTables rotaryTables(const std::vector<Id3>& ids, const FrequencySpec& spec,
                          const RotaryFormat& format);

// The tables of a scene: its position ids (effectiveIds: the design's, or an ids file's), its
// frequency spec, in the format of the model family whose design it is, at the release its
// "rules" parameter names (rotaryFormat).
RotaryTables sceneRotaryTables(const Scene& scene);

// The heads of a q or k array of `shape` to rotate with `tables`: [N, d] (1 head) or
// [heads, N, d] with the tables' N and head dim d; else InputError (field `field`) naming
// `what` ("q file \"q.npy\"", "q"), its shape and the accepted ones.
std::size_t rotaryInputHeads(const std::vector<std::size_t>& shape, const RotaryTables& tables,
                             const std::string& what, const std::string& field);

// x rotated as the family's apply function rotates it: x is [heads][tokens][headDim] float32, C
// order; the result has the same shape. Bit for bit with transformers' float32
// q * cos + rotate_half(q) * sin.
std::vector<float> applyRotaryTables(const RotaryTables& tables, const float* x, std::size_t heads);

}  // namespace ropescope
