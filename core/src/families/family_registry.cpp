// The list of model families. Adding a family: one file in families/, one line here and one in
// design_registry.cpp.
#include "family_base.h"
#include "ropescope/errors.h"
#include "ropescope/named.h"

namespace ropescope {

const std::vector<const ModelFamily*>& allFamilies() {
  static const std::vector<const ModelFamily*> families = {
      &detail::qwen2VlFamily(),    &detail::qwen25VlFamily(),  &detail::qwen3VlFamily(),
      &detail::qwen35Family(),     &detail::glm4vFamily(),     &detail::ernie45VlFamily(),
      &detail::qwen25OmniFamily(), &detail::qwen3OmniFamily(),
  };
  return families;
}

detail::ConfigQuirks detail::configQuirksOf(const ModelFamily& family) {
  const auto* f = dynamic_cast<const detail::FamilyDescriptor*>(&family);
  return f ? f->configQuirks() : detail::ConfigQuirks{};
}

const ModelFamily& findFamily(const std::string& name) {
  return *findByName(
      allFamilies(), name, [](const ModelFamily* f) { return f->name(); }, "model family",
      "family");
}

const ModelFamily* familyForModelType(const std::string& modelType) {
  for (const ModelFamily* f : allFamilies())
    for (const std::string& t : f->modelTypes())
      if (t == modelType) return f;
  return nullptr;
}

const ModelFamily* familyOfDesign(const std::string& design) {
  for (const ModelFamily* f : allFamilies())
    if (f->name() == design) return f;
  return nullptr;
}

AudioTokenRule audioTokenRuleOf(const std::string& design) {
  const ModelFamily* f = familyOfDesign(design);
  return f && f->omni() ? f->omni()->audio : AudioTokenRule::Qwen25Omni;
}

namespace detail {

FrequencySpec familyFrequency(const std::string& plan, std::vector<int> sections, int headDim,
                              int rotaryDim, double base, PairLayout pairs) {
  FrequencySpec f;
  f.plan = plan;
  f.sections = std::move(sections);
  f.rotary.headDim = headDim;
  f.rotary.rotaryDim = rotaryDim;
  f.rotary.base = base;
  f.rotary.pairs = pairs;
  return f;
}

}  // namespace detail
}  // namespace ropescope
