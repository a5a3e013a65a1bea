// Common storage of a rope type (name, summary, parameter table), the precision-generic pieces
// the types share, and the type declarations. Every formula is written once as a template over
// F = float (transformers' float32 tensors) or double (the same code in float64); Python floats
// (math.log, config values) are doubles in both, and a Python scalar meeting a float32 tensor is
// first rounded to float32, as torch does (fl below).
//
// These files are compiled with -ffp-contract=off (core/CMakeLists.txt): torch rounds after
// every operation, so a fused multiply-add would change the last bit.
#pragma once

#include <cmath>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/rope_scaling.h"

namespace ropescope::detail {

class RopeTypeBase : public RopeType {
 public:
  RopeTypeBase(std::string name, std::string summary, std::vector<ParameterSpec> specs,
               std::vector<std::string> required = {})
      : name_(std::move(name)),
        summary_(std::move(summary)),
        specs_(std::move(specs)),
        required_(std::move(required)) {}
  std::string name() const override { return name_; }
  std::string summary() const override { return summary_; }
  const std::vector<ParameterSpec>& parameters() const override { return specs_; }
  std::vector<std::string> requiredKeys() const override { return required_; }

 protected:
  // The value of `key`, or its table default when absent.
  double value(const RopeScaling& s, const std::string& key) const {
    return s.params.get(key, specs_);
  }

 private:
  std::string name_, summary_;
  std::vector<ParameterSpec> specs_;
  std::vector<std::string> required_;
};

// A Python scalar as a tensor operation of precision F sees it.
template <class F>
F fl(double x) {
  return static_cast<F>(x);
}

// torch.arange(0, dim, 2).float() / dim, raised: base ** that (a Python float base becomes F
// first), per pair. The shared "pos_freqs" of every type.
template <class F>
std::vector<F> powLadder(double base, int count, int dim) {
  std::vector<F> out(static_cast<std::size_t>(count));
  const F b = fl<F>(base), d = fl<F>(dim);
  for (int i = 0; i < count; ++i) out[i] = std::pow(b, static_cast<F>(2 * i) / d);
  return out;
}

// 1.0 / (base ** (arange(0, dim, 2) / dim)): the default inv_freq (tensor.__rtruediv__ is a
// reciprocal times 1.0, the same bits as 1 / x).
template <class F>
std::vector<F> defaultInvFreq(double base, int dim) {
  std::vector<F> out = powLadder<F>(base, dim / 2, dim);
  for (F& x : out) x = F(1) / x;
  return out;
}

// Both precisions of one formula, and the per-pair scaling of the float64 pass.
template <class Run>
ScaledFrequencies bothPrecisions(Run run) {
  ScaledFrequencies out;
  out.invFreq32 = run(float{}, &out);
  out.invFreq64 = run(double{}, &out);
  return out;
}

// Refuses the scaling when `a` is not above `b` (beta_fast / beta_slow, high / low freq factor).
void requireAbove(const RopeScaling& s, const std::string& a, double va, const std::string& b,
                  double vb);

const RopeType& defaultRopeType();
const RopeType& linearRopeType();
const RopeType& dynamicRopeType();
const RopeType& yarnRopeType();
const RopeType& longropeRopeType();
const RopeType& llama3RopeType();
const RopeType& proportionalRopeType();

// Shared parameter rows (one declaration each).
ParameterSpec factorSpec(const std::string& help, double defaultValue = 1.0);
ParameterSpec originalLengthSpec(const std::string& help);
ParameterSpec maxPositionSpec(const std::string& help);
ParameterSpec attentionFactorSpec(const std::string& help);

}  // namespace ropescope::detail
