// AGE layer tables (Circle-RoPE strategies 1-4, generalised from 36 layers to any count).
#include "ropescope/age_schedule.h"

#include "ropescope/errors.h"
#include "ropescope/named.h"
#include "ropescope/scene_fields.h"

namespace ropescope {

bool ageUsesCircle(const AgeSchedule& s, int layer) {
  switch (s.strategy) {
    case AgeStrategy::All:
      return true;
    case AgeStrategy::FirstHalf:
      return 2 * layer < s.layers;
    case AgeStrategy::SecondHalf:
      return 2 * layer >= s.layers;
    case AgeStrategy::Alternate:
      return layer % 2 == 0;
  }
  return true;
}

std::vector<bool> ageLayers(const AgeSchedule& s) {
  const SceneField& layers = sceneField("age_layers");
  if (s.layers < layers.spec.min || s.layers > layers.spec.max)
    throw InputError(
        "AGE layers must be " + layers.rangeText() + " (got " + std::to_string(s.layers) + ")",
        layers.key());
  std::vector<bool> out;
  for (int l = 0; l < s.layers; ++l) out.push_back(ageUsesCircle(s, l));
  return out;
}

const char* ageStrategyName(AgeStrategy s) {
  switch (s) {
    case AgeStrategy::All:
      return "all";
    case AgeStrategy::FirstHalf:
      return "first-half";
    case AgeStrategy::SecondHalf:
      return "second-half";
    case AgeStrategy::Alternate:
      return "alternate";
  }
  return "?";
}

AgeStrategy parseAgeStrategy(const std::string& name) {
  for (AgeStrategy s :
       {AgeStrategy::All, AgeStrategy::FirstHalf, AgeStrategy::SecondHalf, AgeStrategy::Alternate})
    if (name == ageStrategyName(s)) return s;
  const SceneField& strategy = sceneField("age_strategy");
  throwUnknownName("AGE strategy", name, strategy.spec.choices, strategy.key());
}

}  // namespace ropescope
