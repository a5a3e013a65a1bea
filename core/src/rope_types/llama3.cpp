// rope_type "llama3" (Llama 3.1): wavelengths shorter than original / high_freq_factor are kept,
// longer than original / low_freq_factor divided by factor, and the ones between smoothed
// (a blend weighted by original / wavelength). Attention factor 1.
#include <cmath>
#include <numbers>

#include "rope_type_base.h"

namespace ropescope::detail {

class Llama3Rope final : public RopeTypeBase {
 public:
  Llama3Rope()
      : RopeTypeBase(
            "llama3",
            "Llama 3.1: short wavelengths kept, long ones divided by factor, smoothed between.",
            {factorSpec("divides the long wavelengths' frequencies"),
             {"low_freq_factor",
              "low freq factor",
              "wavelengths above original / low_freq_factor are divided by factor",
              ParameterSpec::Kind::Number,
              0.0,
              1e6,
              true,
              1.0,
              {}},
             {"high_freq_factor",
              "high freq factor",
              "wavelengths below original / high_freq_factor are kept",
              ParameterSpec::Kind::Number,
              0.0,
              1e6,
              true,
              4.0,
              {}},
             originalLengthSpec("the pre-training length the wavelengths are compared with")},
            {"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}) {
  }

  void validate(const RopeScaling& s, const RopeInputs&) const override {
    requireAbove(s, "high_freq_factor", value(s, "high_freq_factor"), "low_freq_factor",
                 value(s, "low_freq_factor"));
  }

  ScaledFrequencies compute(const RopeInputs& in) const override {
    const RopeScaling& s = *in.scaling;
    const double factor = value(s, "factor");
    const double lowFactor = value(s, "low_freq_factor"), highFactor = value(s, "high_freq_factor");
    const double original = value(s, "original_max_position_embeddings");
    const double lowWavelength = original / lowFactor, highWavelength = original / highFactor;
    return bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      std::vector<F> inv = defaultInvFreq<F>(in.base, in.rotaryDim);
      const bool record = out->scaling.empty();
      for (F& x : inv) {
        // 2 * pi / inv_freq and original / wavelen are reciprocals times the Python float.
        const F wavelength = (F(1) / x) * fl<F>(2 * std::numbers::pi);
        const bool longWave = wavelength > fl<F>(lowWavelength);
        const bool shortWave = wavelength < fl<F>(highWavelength);
        const F divided = longWave ? x / fl<F>(factor) : x;
        F result = divided;
        if (!longWave && !shortWave) {
          const F smooth = ((F(1) / wavelength) * fl<F>(original) - fl<F>(lowFactor)) /
                           fl<F>(highFactor - lowFactor);
          result = (F(1) - smooth) * divided / fl<F>(factor) + smooth * divided;
        }
        if (record)
          out->scaling.push_back(longWave    ? PairScaling::Scaled
                                 : shortWave ? PairScaling::Unchanged
                                             : PairScaling::Ramped);
        x = result;
      }
      return inv;
    });
  }
};

const RopeType& llama3RopeType() {
  static const Llama3Rope t;
  return t;
}

}  // namespace ropescope::detail
