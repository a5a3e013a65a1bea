// rope_type "longrope" (LongRoPE, Phi-3 / Phi-4): each pair's frequency divided by its own
// factor, short_factor while the sequence fits the original length, long_factor past it (the
// rotary forward's update, at max position id + 1 > original). Attention factor
// sqrt(1 + ln(factor) / ln(original)), factor = max_position_embeddings / original when absent.
#include <algorithm>
#include <cmath>

#include "rope_type_base.h"
#include "ropescope/report.h"

namespace ropescope::detail {

class LongRope final : public RopeTypeBase {
 public:
  LongRope()
      : RopeTypeBase(
            "longrope",
            "LongRoPE: a factor per pair, short below the original length, long past it.",
            {originalLengthSpec("the pre-training length; past it the long factors apply"),
             maxPositionSpec("the extended length (factor = it / original when factor is "
                             "absent)"),
             {"factor",
              "factor",
              "the extension ratio behind the attention factor (absent: max_position_embeddings / "
              "original)",
              ParameterSpec::Kind::Number,
              1.0,
              1e6,
              false,
              1.0,
              {}},
             attentionFactorSpec(
                 "multiplies cos and sin (absent: sqrt(1 + ln(factor) / ln(original)))")},
            {"original_max_position_embeddings", "short_factor", "long_factor"}) {}

  bool sequenceDependent() const override { return true; }

  std::vector<RopeListSpec> lists() const override {
    return {{"short_factor", "per-pair divisors while the sequence fits the original length"},
            {"long_factor", "per-pair divisors past the original length"}};
  }

  void validate(const RopeScaling& s, const RopeInputs& in) const override {
    const std::size_t n = static_cast<std::size_t>(in.rotaryDim / 2);
    for (const auto* list : {&s.shortFactor, &s.longFactor}) {
      const std::string key = list == &s.shortFactor ? "short_factor" : "long_factor";
      if (list->size() != n)
        throw InputError("rope longrope: " + key + " must have one factor per pair, " +
                             std::to_string(n) + " for rotary dim " + std::to_string(in.rotaryDim) +
                             " (got " + std::to_string(list->size()) + ")",
                         key);
      for (std::size_t i = 0; i < list->size(); ++i)
        if (!std::isfinite((*list)[i]) || (*list)[i] <= 0.0 || (*list)[i] > 1e12)
          throw InputError("rope longrope: " + key + "[" + std::to_string(i) +
                               "] must be a finite number in (0, 1e12] (got " +
                               formatDouble((*list)[i]) + ")",
                           key);
    }
    if (!s.params.find("factor") && !s.params.find("max_position_embeddings"))
      throw InputError(
          "rope longrope needs factor or max_position_embeddings (the attention "
          "factor comes from their ratio)",
          "factor");
  }

  ScaledFrequencies compute(const RopeInputs& in) const override {
    const RopeScaling& s = *in.scaling;
    const double original = value(s, "original_max_position_embeddings");
    double factor = 0.0;
    if (const auto f = s.params.find("factor"))
      factor = *f;
    else
      factor = value(s, "max_position_embeddings") / original;
    double attention = 1.0;
    if (const auto a = s.params.find("attention_factor"))
      attention = *a;
    else if (factor > 1.0)
      attention = std::sqrt(1 + std::log(factor) / std::log(original));
    const long long seq = s.maxPositionId >= 0 ? s.maxPositionId + 1 : 0;
    const bool longer = seq > 0 && static_cast<double>(seq) > original;
    const std::vector<double>& factors = longer ? s.longFactor : s.shortFactor;
    const int dim = in.rotaryDim;
    ScaledFrequencies r = bothPrecisions([&](auto zero, ScaledFrequencies* out) {
      using F = decltype(zero);
      const std::vector<F> pos = powLadder<F>(in.base, dim / 2, dim);
      std::vector<F> inv(pos.size());
      const bool record = out->scaling.empty();
      for (std::size_t i = 0; i < pos.size(); ++i) {
        const F ext = fl<F>(factors[i]);  // torch.tensor(list, dtype=float32)
        inv[i] = F(1) / (ext * pos[i]);
        if (record)
          out->scaling.push_back(factors[i] == 1.0 ? PairScaling::Unchanged : PairScaling::Scaled);
      }
      return inv;
    });
    r.attentionFactor = attention;
    r.switchLength = static_cast<long long>(original);
    r.switched = longer;
    return r;
  }
};

const RopeType& longropeRopeType() {
  static const LongRope t;
  return t;
}

}  // namespace ropescope::detail
