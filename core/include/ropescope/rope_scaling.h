// Context extension of the rotary frequencies (a checkpoint's rope_scaling / rope_parameters), as
// Hugging Face transformers' modeling_rope_utils.py computes it: one rope type per file under
// core/src/rope_types, behind RopeType and the registry allRopeTypes().
//
// transformers computes the scaled inv_freq over all pairs in pair order, blind to axes, and only
// then hands pairs to t, h, w (mrope_section chunks, interleaving); resolvePairs does the same:
// the frequency plan decides each pair's axis, the rope type each pair's frequency.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ropescope/parameters.h"
#include "ropescope/scene_defaults.h"

namespace ropescope {

// How a pair's frequency compares with the unscaled ladder: left alone, on the ramp between
// (YaRN's blend, llama3's smoothing), divided (by the factor, or longrope's own factor), or not
// rotated at all (proportional's pairs past the cut).
enum class PairScaling { Unchanged = 0, Ramped = 1, Scaled = 2, NotRotated = 3 };
inline constexpr int kPairScalingCount = 4;
const char* pairScalingName(PairScaling s);  // "unchanged", "ramped", "scaled", "not_rotated"

// A list parameter (longrope's short_factor / long_factor): one positive number per pair.
struct RopeListSpec {
  std::string key;
  std::string help;
};

// The largest position id a scaling takes (RopeScaling::maxPositionId), on the CLI, in scene
// files and from Python.
inline constexpr long long kMaxRopePositionId = 1LL << 40;

// The scaling a scene applies: a rope type and its parameters. An empty type means no scaling
// block at all (theta as the plan gives it).
struct RopeScaling {
  std::string type;  // "", "default", "linear", "dynamic", "yarn", "longrope", "llama3", ...
  ParameterSet params;
  std::vector<double> shortFactor, longFactor;  // longrope
  // dynamic / longrope: the largest position id of the sequence the frequencies are for, as the
  // rotary forward's update sees it (seq_len = max id + 1, over all axes). -1: none, the
  // frequencies the rotary module holds when built (seq_len None).
  long long maxPositionId = -1;  // -1, or 0..kMaxRopePositionId

  bool active() const { return !type.empty(); }
  bool operator==(const RopeScaling&) const = default;
};

// What a rope type computes from: the rotary settings of the spec.
struct RopeInputs {
  double base = kDefaultRopeBase;  // rope_theta
  int headDim = kDefaultHeadDim;
  int rotaryDim = kDefaultHeadDim;  // int(head_dim * partial_rotary_factor): the dim most types use
  const RopeScaling* scaling = nullptr;
};

// inv_freq per pair in float32 (the same operations, in the same order and precision, as
// transformers' float32 code on a CPU without vector pow: bit for bit with torch at
// ATEN_CPU_CAPABILITY=default) and float64 (the same code in float64), and the attention factor
// (attention_scaling, which multiplies cos and sin, so logits scale by its square).
struct ScaledFrequencies {
  std::vector<float> invFreq32;
  std::vector<double> invFreq64;
  std::vector<PairScaling> scaling;
  double attentionFactor = 1.0;
  // dynamic / longrope: where the sequence switches the frequencies (seq_len above it), and
  // whether RopeScaling::maxPositionId is past it. 0 when the type has no switch.
  long long switchLength = 0;
  bool switched = false;
};

class RopeType {
 public:
  virtual ~RopeType() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  // The numeric parameters, declared once (key, range, default, help): the CLI's --rope-param,
  // its help, validation and the config reader come from this table.
  virtual const std::vector<ParameterSpec>& parameters() const = 0;
  // The keys the type requires (transformers raises KeyError without them).
  virtual std::vector<std::string> requiredKeys() const { return {}; }
  virtual std::vector<RopeListSpec> lists() const { return {}; }
  // Whether the frequencies depend on the sequence (dynamic, longrope): they then read
  // RopeScaling::maxPositionId and report ScaledFrequencies::switchLength.
  virtual bool sequenceDependent() const { return false; }
  // Checks that involve more than one value or the rotary dims (beta_fast > beta_slow, a list's
  // length); throws InputError naming the key and the accepted range.
  virtual void validate(const RopeScaling&, const RopeInputs&) const {}
  // The number of pairs it returns: rotaryDim / 2, proportional headDim / 2.
  virtual int pairCount(const RopeInputs& in) const { return in.rotaryDim / 2; }
  virtual ScaledFrequencies compute(const RopeInputs& in) const = 0;
};

const std::vector<const RopeType*>& allRopeTypes();
std::vector<std::string> ropeTypeNames();
// Throws InputError "unknown rope type \"x\" (accepted: default, linear, ...)" (field "rope").
const RopeType& findRopeType(const std::string& name);

// Every key the type takes, numbers then lists (the accepted set in messages).
std::vector<std::string> ropeParameterKeys(const RopeType& type);

// Validates the scaling for these rotary settings: known type, known keys (an unknown one is
// named with the accepted set), values in range, required keys present, cross-field rules.
// Throws InputError with one line (field: the key, or "rope").
void validateRopeScaling(const RopeScaling& scaling, const RopeInputs& in);

// Validates, then computes.
ScaledFrequencies scaleFrequencies(const RopeScaling& scaling, const RopeInputs& in);

// A parameter's value as given, else nullopt (an optional key that is absent).
std::optional<double> ropeParam(const RopeScaling& s, const std::string& key);

// A list parameter (short_factor, long_factor) as a person types it: numbers separated by
// commas, spaces allowed ("1, 1.05, 1.1"). Each item must be a number; the list's length and
// range are the rope type's to check (validateRopeScaling). Anything else: InputError on field
// `key`, naming the item. Empty text gives an empty list (the key absent).
std::vector<double> parseRopeListText(const std::string& text, const std::string& key);
// "1,1.05,1.1": each number in its shortest exact form (parseRopeListText reads it back).
std::string formatRopeListText(const std::vector<double>& list);

}  // namespace ropescope
