// rope_type "yarn" (YaRN, arXiv 2309.00071, as transformers computes it): pairs that turn more
// than beta_fast times over the original length keep their frequency, pairs that turn fewer than
// beta_slow times are divided by factor, and a linear ramp over the pair index blends the ones
// between. The attention factor 0.1 ln(factor) + 1 (or mscale / mscale_all_dim's ratio, or the
// given attention_factor) multiplies cos and sin.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "rope_type_base.h"

namespace ropescope::detail {

namespace {

// 0.1 * mscale * ln(scale) + 1, or 1 for scale <= 1 (get_mscale).
double mscaleOf(double scale, double mscale) {
  return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

// The pair index at which a pair turns `rotations` times over `length` positions (fractional).
double correctionDim(double rotations, int dim, double base, double length) {
  return (dim * std::log(length / (rotations * 2 * std::numbers::pi))) / (2 * std::log(base));
}

}  // namespace

class YarnRope final : public RopeTypeBase {
 public:
  YarnRope()
      : RopeTypeBase(
            "yarn", "YaRN: fast pairs kept, slow pairs divided by factor, a ramp between.",
            {factorSpec("divides the slow pairs' frequencies (the context extension)"),
             originalLengthSpec("the pre-training length the ramp is measured over"),
             {"beta_fast",
              "beta fast",
              "pairs turning more often than this over the original "
              "length keep their frequency (absent: 32)",
              ParameterSpec::Kind::Number,
              0.0,
              1e6,
              true,
              32.0,
              {}},
             {"beta_slow",
              "beta slow",
              "pairs turning less often than this are divided by "
              "factor (absent: 1)",
              ParameterSpec::Kind::Number,
              0.0,
              1e6,
              true,
              1.0,
              {}},
             attentionFactorSpec("multiplies cos and sin (absent: 0.1 ln(factor) + 1, or the "
                                 "mscale ratio)"),
             {"mscale",
              "mscale",
              "with mscale_all_dim: attention factor = (0.1 mscale ln f + 1) / "
              "(0.1 mscale_all_dim ln f + 1) (DeepSeek-V3)",
              ParameterSpec::Kind::Number,
              0.0,
              1e3,
              false,
              0.0,
              {}},
             {"mscale_all_dim",
              "mscale all dim",
              "the denominator's mscale (see mscale)",
              ParameterSpec::Kind::Number,
              0.0,
              1e3,
              false,
              0.0,
              {}},
             {"truncate",
              "truncate",
              "round the ramp's ends to whole pairs (false: gpt-oss)",
              ParameterSpec::Kind::Bool,
              0.0,
              1.0,
              false,
              1.0,
              {}}},
            {"factor", "original_max_position_embeddings"}) {}

  void validate(const RopeScaling& s, const RopeInputs&) const override {
    requireAbove(s, "beta_fast", value(s, "beta_fast"), "beta_slow", value(s, "beta_slow"));
  }

  ScaledFrequencies compute(const RopeInputs& in) const override {
    const RopeScaling& s = *in.scaling;
    const double factor = value(s, "factor");
    const int dim = in.rotaryDim;
    const double original = value(s, "original_max_position_embeddings");
    double attention = 0.0;
    if (const auto given = s.params.find("attention_factor")) {
      attention = *given;
    } else {
      const double ms = value(s, "mscale"), msAll = value(s, "mscale_all_dim");
      attention = ms != 0.0 && msAll != 0.0 ? mscaleOf(factor, ms) / mscaleOf(factor, msAll)
                                            : mscaleOf(factor, 1.0);
    }
    // The ramp's ends, in Python floats (ints when truncated).
    double low = correctionDim(value(s, "beta_fast"), dim, in.base, original);
    double high = correctionDim(value(s, "beta_slow"), dim, in.base, original);
    if (value(s, "truncate") != 0.0) {
      low = std::floor(low);
      high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(dim - 1));
    if (low == high) high += 0.001;  // transformers' guard against a zero-width ramp
    ScaledFrequencies r = bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      const std::vector<F> pos = powLadder<F>(in.base, dim / 2, dim);
      std::vector<F> inv(pos.size());
      const bool record = out->scaling.empty();
      for (std::size_t i = 0; i < pos.size(); ++i) {
        const F extrapolation = F(1) / pos[i];
        const F interpolation = F(1) / (fl<F>(factor) * pos[i]);
        F ramp = (static_cast<F>(i) - fl<F>(low)) / fl<F>(high - low);
        ramp = std::clamp(ramp, F(0), F(1));
        const F keep = F(1) - ramp;  // inv_freq_extrapolation_factor
        inv[i] = interpolation * (F(1) - keep) + extrapolation * keep;
        if (record)
          out->scaling.push_back(keep == F(1)   ? PairScaling::Unchanged
                                 : keep == F(0) ? PairScaling::Scaled
                                                : PairScaling::Ramped);
      }
      return inv;
    });
    r.attentionFactor = attention;
    return r;
  }
};

const RopeType& yarnRopeType() {
  static const YarnRope t;
  return t;
}

}  // namespace ropescope::detail
