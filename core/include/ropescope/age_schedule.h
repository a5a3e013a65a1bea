// Alternating Geometry Encoding (Circle-RoPE): which decoder layers use the circle ids and which
// the plain M-RoPE ids.
#pragma once

#include <string>
#include <vector>

namespace ropescope {

enum class AgeStrategy { All, FirstHalf, SecondHalf, Alternate };

struct AgeSchedule {
  int layers = 36;
  AgeStrategy strategy = AgeStrategy::Alternate;
  bool operator==(const AgeSchedule&) const = default;
};

// true = the layer uses circle ids. FirstHalf: layers < layers/2 (the first ceil(L/2) for odd L);
// Alternate starts with circle at layer 0 (the released strategy_4).
std::vector<bool> ageLayers(const AgeSchedule& schedule);
bool ageUsesCircle(const AgeSchedule& schedule, int layer);
// The design an AGE layer applies to (its layers use circle or M-RoPE ids); other designs have
// none (the CLI refuses --age-layer for them).
inline constexpr const char* kAgeDesign = "circle";

const char* ageStrategyName(AgeStrategy s);  // "all", "first-half", "second-half", "alternate"
AgeStrategy parseAgeStrategy(const std::string& name);  // throws InputError

}  // namespace ropescope
