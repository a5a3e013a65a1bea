// Plan registry, validation of the rotary settings and sections, and the resolved pair table.
#include "ropescope/frequency_plan.h"

#include <cmath>
#include <numeric>
#include <string>

#include "plans/plan_base.h"
#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/report.h"
#include "ropescope/scene_fields.h"

namespace ropescope {

const char* axisName(Axis a) {
  switch (a) {
    case Axis::T:
      return "t";
    case Axis::H:
      return "h";
    case Axis::W:
      return "w";
    case Axis::None:
      return "none";
    case Axis::Mix:
      return "h+w-t";
  }
  return "?";
}

const char* pairLayoutName(PairLayout p) {
  return p == PairLayout::GptJ ? "gptj" : "neox";
}

PairLayout parsePairLayout(const std::string& text, const std::string& field) {
  if (text == "neox") return PairLayout::NeoX;
  if (text == "gptj") return PairLayout::GptJ;
  throw InputError(
      "pair layout must be neox (dims p, p + r/2) or gptj (dims 2p, 2p + 1) (got \"" + text + "\")",
      field);
}

std::vector<int> PairTable::pairsOf(Axis a) const {
  std::vector<int> out;
  for (int p = 0; p < size(); ++p)
    if (axis[p] == a) out.push_back(p);
  return out;
}

const std::vector<const FrequencyPlan*>& allPlans() {
  static const std::vector<const FrequencyPlan*> plans = {
      &detail::vanillaPlan(),   &detail::mropePlan(),     &detail::interleavedPlan(),
      &detail::multiheadPlan(), &detail::videoRopePlan(), &detail::videoRopeRepoPlan(),
      &detail::hopePlan(),      &detail::erniePlan(),
      &detail::mmRopePlan(),  // research designs
      &detail::vropePlan(),
  };
  return plans;
}

const FrequencyPlan& findPlan(const std::string& name) {
  return *findByName(
      allPlans(), name, [](const FrequencyPlan* p) { return p->name(); }, "frequency plan", "plan");
}

double pairFrequency(double base, int pair, int rotaryDim) {
  return std::pow(base, -2.0 * pair / rotaryDim);
}

namespace {
std::string joined(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}
}  // namespace

PairTable resolvePairs(const FrequencySpec& input) {
  const FrequencyPlan& plan = findPlan(input.plan);
  FrequencySpec spec = input;
  const RotaryConfig& r = spec.rotary;
  // The ranges are the field table's (scene_fields.h); the rotary dim is also at most the head
  // dim, and 0 stands for all of it.
  const SceneField& head = sceneField("head_dim");
  if (r.headDim < head.spec.min || r.headDim > head.spec.max || r.headDim % 2 != 0)
    throw InputError("head dim must be an even number in " + head.rangeText() + " (got " +
                         std::to_string(r.headDim) + ")",
                     head.key());
  if (r.rotaryDim != 0 && (r.rotaryDim < 2 || r.rotaryDim > r.headDim || r.rotaryDim % 2 != 0))
    throw InputError("rotary dim must be an even number in 2..head dim " +
                         std::to_string(r.headDim) + ", or 0 for all (got " +
                         std::to_string(r.rotaryDim) + ")",
                     "rotary_dim");
  const SceneField& base = sceneField("base");
  if (!std::isfinite(r.base) || r.base <= base.spec.min || r.base > base.spec.max)
    throw InputError("base must be a finite number in " + base.rangeText() + " (got " +
                         formatDouble(r.base) + ")",
                     base.key());
  const int pairs = r.pairCount();
  if (plan.usesSections()) {
    if (spec.sections.empty()) spec.sections = plan.defaultSections(pairs);
    if (spec.sections.size() != 3)
      throw InputError(
          "sections need three numbers t,h,w (got " + std::to_string(spec.sections.size()) + ")",
          "sections");
    const SceneField& sections = sceneField("sections");
    for (int s : spec.sections)
      if (s < sections.spec.min || s > sections.spec.max)
        throw InputError("sections must be >= " + std::to_string(int(sections.spec.min)) +
                             " and <= " + std::to_string(int(sections.spec.max)) + " (got " +
                             joined(spec.sections) + ")",
                         sections.key());
    const int sum = std::accumulate(spec.sections.begin(), spec.sections.end(), 0);
    if (plan.name() == "multihead") {
      const SceneField& kvHeads = sceneField("kv_heads");
      if (spec.kvHeads < kvHeads.spec.min || spec.kvHeads > kvHeads.spec.max)
        throw InputError("kv heads must be " + kvHeads.rangeText() + " (got " +
                             std::to_string(spec.kvHeads) + ")",
                         kvHeads.key());
      if (sum > spec.kvHeads)
        throw InputError(
            input.sections.empty()
                ? "multihead's default sections " + joined(spec.sections) + " count " +
                      std::to_string(sum) + " KV heads: with kv heads " +
                      std::to_string(spec.kvHeads) + " give sections t,h,w that sum to at most " +
                      std::to_string(spec.kvHeads)
                : "multihead sections count KV heads and must sum to at most kv heads " +
                      std::to_string(spec.kvHeads) + " (got " + joined(spec.sections) + ")",
            "sections");
      if (spec.kvHead < 0 || spec.kvHead >= spec.kvHeads)
        throw InputError("kv head must be 0.." + std::to_string(spec.kvHeads - 1) + " (got " +
                             std::to_string(spec.kvHead) + ")",
                         "kv_head");
    } else if (sum != pairs) {
      throw InputError("sections " + joined(spec.sections) + " sum to " + std::to_string(sum) +
                           " but the rotary dim has " + std::to_string(pairs) +
                           " pairs (they must sum to " + std::to_string(pairs) + ")",
                       "sections");
    }
    if ((plan.name() == "videorope" || plan.name() == "videorope-repo" || plan.name() == "hope" ||
         plan.name() == "ernie") &&
        spec.sections[1] != spec.sections[2])
      throw InputError(plan.name() + " alternates h and w, so their sections must be equal (got " +
                           joined(spec.sections) + ")",
                       "sections");
  } else if (!spec.sections.empty()) {
    throw InputError("plan " + plan.name() + " takes no sections", "sections");
  }
  PairTable table;
  table.headDim = r.headDim;
  table.layout = r.pairs;
  table.axis = plan.axisMap(spec);
  table.theta.resize(pairs);
  for (int p = 0; p < pairs; ++p)
    table.theta[p] =
        table.axis[p] == Axis::None ? 0.0 : pairFrequency(r.base, p, r.effectiveRotaryDim());
  if (spec.rope.active()) {
    // Scaled over all pairs in pair order, blind to axes; the plan's axes then take them.
    const ScaledFrequencies f = scaleFrequencies(spec.rope, ropeInputs(r));
    table.ropeType = spec.rope.type;
    table.thetaUnscaled = table.theta;
    table.scaling = f.scaling;
    table.invFreq32 = f.invFreq32;
    table.attentionFactor = f.attentionFactor;
    table.switchLength = f.switchLength;
    table.switched = f.switched;
    for (int p = 0; p < pairs; ++p)
      if (table.axis[p] != Axis::None) table.theta[p] = f.invFreq64[p];
  }
  return table;
}

RopeInputs ropeInputs(const RotaryConfig& r) {
  RopeInputs in;
  in.base = r.base;
  in.headDim = r.headDim;
  in.rotaryDim = r.effectiveRotaryDim();
  return in;
}

PairTable unscaledPairs(const PairTable& table) {
  PairTable out;
  out.axis = table.axis;
  out.theta = table.scaled() ? table.thetaUnscaled : table.theta;
  out.headDim = table.headDim;
  out.layout = table.layout;
  return out;
}

ScalingCounts scalingCounts(const PairTable& table) {
  ScalingCounts counts{};
  for (std::size_t p = 0; p < table.scaling.size() && p < table.axis.size(); ++p)
    ++counts[static_cast<std::size_t>(table.axis[p])][static_cast<std::size_t>(table.scaling[p])];
  return counts;
}

}  // namespace ropescope
