// Frequency plans: which rotary pair rotates with which axis (t, h, w, or none), and at what
// frequency theta_p = base^(-2p/rotary_dim). One plan per file under core/src/plans.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ropescope/rope_scaling.h"
#include "ropescope/scene_defaults.h"

namespace ropescope {

// Mix is VRoPE's fourth index map: no id channel of its own, its coordinate is h + w - t of the
// stored ids (see axisCoordinate; the vrope design stores its first three maps as t, h, w).
enum class Axis { T = 0, H = 1, W = 2, None = 3, Mix = 4 };
const char* axisName(Axis a);  // "t", "h", "w", "none", "h+w-t"

// The coordinate a pair on axis `a` rotates with, for ids (or a displacement) id = (t, h, w):
// id[a] for t, h, w; h + w - t for Mix (linear, so a displacement's coordinate is the difference
// of the tokens' coordinates; a text token (p, p, p) has p on every axis); 0 for None.
inline double axisCoordinate(Axis a, const std::array<double, 3>& id) {
  switch (a) {
    case Axis::T:
    case Axis::H:
    case Axis::W:
      return id[static_cast<int>(a)];
    case Axis::Mix:
      return id[1] + id[2] - id[0];
    case Axis::None:
      break;
  }
  return 0.0;
}

// The axes that carry a coordinate, in slot order: slot(t, h, w, Mix) = 0, 1, 2, 3; None: -1.
inline constexpr Axis kCoordinateAxes[4] = {Axis::T, Axis::H, Axis::W, Axis::Mix};
inline int coordinateSlot(Axis a) {
  return a == Axis::None ? -1 : a == Axis::Mix ? 3 : static_cast<int>(a);
}

// Which two dims of q/k rotary pair p rotates. NeoX (Hugging Face rotate_half, Qwen): dims p and
// p + r/2 for rotary dim r. GPT-J (GLM-4.1V, ERNIE-4.5-VL): dims 2p and 2p + 1.
enum class PairLayout { NeoX, GptJ };
const char* pairLayoutName(PairLayout p);  // "neox", "gptj"
// "neox" or "gptj"; anything else throws InputError naming both (`field` as in InputError).
PairLayout parsePairLayout(const std::string& text, const std::string& field = "pairs");

// The two dims of q/k that pair `pair` of `pairs` (= rotary dim / 2) rotates, first the one
// that gets x*c - y*s: NeoX (p, p + pairs), GPT-J (2p, 2p + 1). Dims >= 2 * pairs pass through.
struct PairDims {
  int first = 0, second = 0;
};
inline PairDims pairDims(PairLayout layout, int pair, int pairs) {
  return layout == PairLayout::GptJ ? PairDims{2 * pair, 2 * pair + 1}
                                    : PairDims{pair, pair + pairs};
}

// Rotary settings shared by every plan.
struct RotaryConfig {
  int headDim = kDefaultHeadDim;
  int rotaryDim = 0;  // 0 means headDim (no partial rotary)
  double base = kDefaultRopeBase;
  PairLayout pairs = PairLayout::NeoX;

  int effectiveRotaryDim() const { return rotaryDim > 0 ? rotaryDim : headDim; }
  int pairCount() const { return effectiveRotaryDim() / 2; }
  bool operator==(const RotaryConfig&) const = default;
};

// What the user chose: plan name, rotary settings, sections, and for multihead the KV heads.
struct FrequencySpec {
  std::string plan = kDefaultPlan;
  RotaryConfig rotary;
  std::vector<int> sections;      // empty: the plan's default for the pair count
  int kvHeads = kDefaultKvHeads;  // multihead only
  int kvHead = 0;                 // multihead only: the KV head whose map is used
  // The checkpoint's context extension (rope_scaling / rope_parameters): computed over
  // all pairs in pair order, then handed to the plan's axes. Empty type: none.
  RopeScaling rope;
  bool operator==(const FrequencySpec&) const = default;
};

// The resolved table: per pair, its axis and frequency (0 for a NoPE pair).
struct PairTable {
  std::vector<Axis> axis;
  std::vector<double> theta;
  int headDim = kDefaultHeadDim;
  PairLayout layout = PairLayout::NeoX;  // which dims each pair rotates (see pairDims)
  // With a rope scaling (FrequencySpec::rope active), theta is the scaled float64 inv_freq and
  // these say what it was scaled from; without one they are empty and attentionFactor is 1.
  std::string ropeType;               // the rope type, "" without a scaling
  std::vector<double> thetaUnscaled;  // the plan's theta before scaling (0 for NoPE pairs)
  std::vector<PairScaling> scaling;   // per pair: unchanged, ramped, scaled, not rotated
  std::vector<float> invFreq32;       // transformers' float32 inv_freq, per pair
  double attentionFactor = 1.0;       // multiplies cos and sin: logits scale by its square
  long long switchLength = 0;         // dynamic / longrope: seq_len above which they switch
  bool switched = false;              // the scaling's max position id is past that switch

  int size() const { return static_cast<int>(axis.size()); }
  std::vector<int> pairsOf(Axis a) const;
  bool scaled() const { return !ropeType.empty(); }
  // What every logit is multiplied by: the attention factor squared (cos and sin both carry it).
  double logitScale() const { return attentionFactor * attentionFactor; }
};

// The table as the plan gives it before its rope scaling: theta = thetaUnscaled, no scaling
// fields, attention factor 1 (the same table without a scaling).
PairTable unscaledPairs(const PairTable& table);

class FrequencyPlan {
 public:
  virtual ~FrequencyPlan() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;
  virtual std::string summary() const = 0;
  virtual bool usesSections() const = 0;
  virtual std::vector<int> defaultSections(int pairs) const = 0;
  // Axis of every pair for the given spec (already validated for sections). Throws InputError.
  virtual std::vector<Axis> axisMap(const FrequencySpec& spec) const = 0;
  // NoPE pairs get theta 0 (HoPE's temporal band).
  virtual bool zeroFrequencyFor(Axis) const { return false; }
};

const std::vector<const FrequencyPlan*>& allPlans();
const FrequencyPlan& findPlan(const std::string& name);

// Validates the spec (head dim even and in range, rotary dim even and <= head dim, base > 1,
// sections sum) and builds the table. Throws InputError naming the field and the range.
PairTable resolvePairs(const FrequencySpec& spec);

// The rotary settings a rope type computes from (base, head dim, rotary dim of the spec).
RopeInputs ropeInputs(const RotaryConfig& r);

// Per axis (t, h, w, none, h+w-t in Axis order), how many pairs the scaling leaves unchanged,
// ramps, scales or stops rotating (indexed by PairScaling). All zero without a scaling.
using ScalingCounts = std::array<std::array<int, kPairScalingCount>, 5>;
ScalingCounts scalingCounts(const PairTable& table);

// theta_p = base^(-2p/rotary_dim), computed as the reference does (pow in double).
double pairFrequency(double base, int pair, int rotaryDim);

}  // namespace ropescope
