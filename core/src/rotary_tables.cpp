// The reference tables of `ropescope rotary` (rotary_tables.h). Compiled without fused
// multiply-add (core/CMakeLists.txt), as torch rounds every product and sum of the forward and
// the apply function.
#include "ropescope/rotary_tables.h"

#include <cmath>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/transformers_release.h"

namespace ropescope {

const char* cosLayoutName(CosLayout layout) {
  switch (layout) {
    case CosLayout::PerAxis:
      return "per_axis";
    case CosLayout::Halves:
      return "halves";
    case CosLayout::Pairs:
      return "pairs";
  }
  return "?";
}

namespace {

// The families whose forward returns one slab per axis, and the release where GLM-4.1V's moved
// the section pick into the forward (apply_mrope).
bool perAxisFamily(const std::string& name, const std::string& release) {
  if (name == "qwen2-vl" || name == "qwen2.5-vl" || name == "qwen2.5-omni") return true;
  if (name != "glm4v") return false;
  const auto at = releaseIndex(release);
  return at && *at < *releaseIndex("5.0.0rc3");
}

}  // namespace

RotaryFormat rotaryFormat(const ModelFamily* family, const std::string& release,
                          const FrequencySpec& spec) {
  RotaryFormat f;
  f.cos = spec.rotary.pairs == PairLayout::GptJ ? CosLayout::Pairs : CosLayout::Halves;
  if (family) {
    const FrequencySpec own = family->defaultFrequency();
    if (own.plan == spec.plan && own.rotary.pairs == spec.rotary.pairs) {
      const std::string name = family->name();
      // GLM-4.1V's forward returns halves (cat(freqs, freqs)); its apply function interleaves.
      if (name == "glm4v") f.cos = CosLayout::Halves;
      if (perAxisFamily(name, release)) f.cos = CosLayout::PerAxis;
      f.from = family->title() + " text rotary forward at transformers " + release;
      f.family = name;
      f.release = release;
      return f;
    }
    f.from = "ropescope's " + spec.plan + " plan (not " + family->title() + "'s own plan " +
             own.plan + ": no transformers layout)";
    return f;
  }
  if (spec.plan == "vanilla") {
    f.idAxes = 1;
    f.from = "1-D rotary (Llama's text rotary forward)";
    return f;
  }
  f.from = "ropescope's " + spec.plan + " plan (no transformers family)";
  return f;
}

RotaryTables rotaryTables(const std::vector<Id3>& ids, const FrequencySpec& input,
                          const RotaryFormat& format) {
  FrequencySpec spec = input;
  if (!spec.rope.active()) spec.rope.type = "default";  // transformers' float32 ladder
  const PairTable table = resolvePairs(spec);
  RotaryTables t;
  t.tokens = ids.size();
  t.headDim = table.headDim;
  t.pairs = table.size();
  t.pairLayout = table.layout;
  t.format = format;
  t.ropeType = table.ropeType;
  t.attentionFactor = table.attentionFactor;
  t.axis = table.axis;
  t.invFreq32 = table.invFreq32;
  t.invFreq64.assign(table.invFreq32.size(), 0.0);
  // table.theta is the float64 inv_freq of the pairs that rotate (0 for a NoPE pair).
  for (int p = 0; p < t.pairs; ++p) t.invFreq64[std::size_t(p)] = table.theta[std::size_t(p)];
  for (int p = 0; p < t.pairs; ++p)
    if (table.axis[std::size_t(p)] == Axis::None) t.invFreq32[std::size_t(p)] = 0.0f;

  const std::size_t n = t.tokens, pairs = std::size_t(t.pairs), r = 2 * pairs;
  const std::size_t d = std::size_t(t.headDim);
  const std::size_t slabs = format.cos == CosLayout::PerAxis ? 3 : 1;
  if (double(slabs) * double(n) * double(std::max(r, d)) > double(kMaxRotaryTableValues))
    throw InputError("rotary tables of " + std::to_string(n) + " tokens x " + std::to_string(d) +
                         " dims exceed " + std::to_string(kMaxRotaryTableValues) +
                         " values; use fewer tokens",
                     "layout");

  // Position ids as the forward gets them.
  const std::size_t idAxes = std::size_t(format.idAxes);
  t.positionIds.resize(idAxes * n);
  for (std::size_t a = 0; a < idAxes; ++a)
    for (std::size_t i = 0; i < n; ++i) {
      const double v = ids[i][a];
      t.positionIds[a * n + i] = v;
      if (v != std::floor(v)) t.integerIds = false;
    }

  // One pair at one coordinate: float32 as transformers' forward, and float64.
  const float factor32 = static_cast<float>(t.attentionFactor);
  const auto cos32 = [&](std::size_t p, double coord) {
    const float angle = static_cast<float>(coord) * t.invFreq32[p];
    return std::cos(angle) * factor32;
  };
  const auto sin32 = [&](std::size_t p, double coord) {
    const float angle = static_cast<float>(coord) * t.invFreq32[p];
    return std::sin(angle) * factor32;
  };
  const auto angle64 = [&](std::size_t p, double coord) { return coord * t.invFreq64[p]; };
  // The dim of cos that pair p fills first (the second: + pairs for halves, + 1 for pairs).
  const auto firstDim = [&](std::size_t p) { return format.cos == CosLayout::Pairs ? 2 * p : p; };
  const std::size_t second = format.cos == CosLayout::Pairs ? 1 : pairs;

  t.cosShape =
      slabs == 3 ? std::vector<std::size_t>{3, 1, n, r} : std::vector<std::size_t>{1, n, r};
  t.cos.assign(slabs * n * r, 0.0f);
  t.sin.assign(t.cos.size(), 0.0f);
  t.cos64.assign(t.cos.size(), 0.0);
  t.sin64.assign(t.cos.size(), 0.0);
  for (std::size_t s = 0; s < slabs; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = 0; p < pairs; ++p) {
        // PerAxis: every pair at slab s's axis; otherwise at the pair's own axis.
        const double coord = slabs == 3 ? ids[i][s] : axisCoordinate(table.axis[p], ids[i]);
        const std::size_t at = (s * n + i) * r + firstDim(p);
        t.cos[at] = t.cos[at + second] = cos32(p, coord);
        t.sin[at] = t.sin[at + second] = sin32(p, coord);
        t.cos64[at] = t.cos64[at + second] = std::cos(angle64(p, coord)) * t.attentionFactor;
        t.sin64[at] = t.sin64[at + second] = std::sin(angle64(p, coord)) * t.attentionFactor;
      }

  // The rotation as applied: pair p turns dims (first, second) of q and k by the angle of its
  // own axis; first gets x*c - y*s, second y*c + x*s; the dims past the rotary dim pass.
  t.rotPartner.assign(d, -1);
  t.rotCos.assign(n * d, 1.0f);
  t.rotSin.assign(n * d, 0.0f);
  for (std::size_t p = 0; p < pairs; ++p) {
    const PairDims pd = pairDims(t.pairLayout, int(p), int(pairs));
    t.rotPartner[std::size_t(pd.first)] = pd.second;
    t.rotPartner[std::size_t(pd.second)] = pd.first;
    for (std::size_t i = 0; i < n; ++i) {
      const double coord = axisCoordinate(table.axis[p], ids[i]);
      const float c = cos32(p, coord), s = sin32(p, coord);
      t.rotCos[i * d + std::size_t(pd.first)] = c;
      t.rotCos[i * d + std::size_t(pd.second)] = c;
      // As transformers' apply function gives it for a one-hot input (the oracle's probe): the
      // channel's own term 0 * c plus the partner's -s or s, which makes a zero sine's sign that
      // of the sum (0 * c + -0 is +0 where c > 0).
      t.rotSin[i * d + std::size_t(pd.first)] = 0.0f * c + -s;
      t.rotSin[i * d + std::size_t(pd.second)] = 0.0f * c + s;
    }
  }
  return t;
}

RotaryTables sceneRotaryTables(const Scene& scene) {
  const PositionIds ids = effectiveIds(scene);
  const ModelFamily* family = familyOfDesign(scene.design);
  std::string release;
  if (family) {
    const PositionDesign& design = findDesign(scene.design);
    release = ruleSetRelease(
        static_cast<std::size_t>(scene.designParams.get("rules", design.parameters())));
  }
  return rotaryTables(ids.ids, scene.frequency, rotaryFormat(family, release, scene.frequency));
}

std::size_t rotaryInputHeads(const std::vector<std::size_t>& s, const RotaryTables& t,
                             const std::string& what, const std::string& field) {
  const std::string n = std::to_string(t.tokens), d = std::to_string(t.headDim);
  const bool ok = (s.size() == 2 || s.size() == 3) && s[s.size() - 2] == t.tokens &&
                  s.back() == std::size_t(t.headDim) && (s.size() == 2 || s[0] > 0);
  if (!ok) {
    std::string shape;
    for (std::size_t v : s) shape += (shape.empty() ? "" : ", ") + std::to_string(v);
    throw InputError(what + " has shape [" + shape + "]; expected [" + n + ", " + d +
                         "] or [heads, " + n + ", " + d + "] (the layout's " + n +
                         " tokens, head dim " + d + ")",
                     field);
  }
  return s.size() == 3 ? s[0] : 1;
}

std::vector<float> applyRotaryTables(const RotaryTables& t, const float* x, std::size_t heads) {
  const std::size_t n = t.tokens, d = std::size_t(t.headDim);
  std::vector<float> out(heads * n * d);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i) {
      const float* in = x + (h * n + i) * d;
      float* y = out.data() + (h * n + i) * d;
      const float* c = t.rotCos.data() + i * d;
      const float* s = t.rotSin.data() + i * d;
      for (std::size_t m = 0; m < d; ++m) {
        const std::int64_t partner = t.rotPartner[m];
        if (partner < 0) {
          y[m] = in[m];
          continue;
        }
        // Two rounded products, then their rounded sum: q * cos + rotate(q) * sin.
        const float a = in[m] * c[m];
        const float b = in[std::size_t(partner)] * s[m];
        y[m] = a + b;
      }
    }
  return out;
}

}  // namespace ropescope
