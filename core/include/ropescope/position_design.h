// The interface every position design implements, and the registry that lists them.
// Adding a design is one file under core/src/designs plus one line in design_registry.cpp.
#pragma once

#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/parameters.h"
#include "ropescope/position_ids.h"

namespace ropescope {

class PositionDesign {
 public:
  virtual ~PositionDesign() = default;
  virtual std::string name() const = 0;   // "circle"
  virtual std::string title() const = 0;  // "Circle-RoPE (cone)"
  virtual std::string summary() const = 0;
  virtual MetricSpace metricSpace() const = 0;
  virtual std::vector<ParameterSpec> parameters() const = 0;
  // Validates params (throws InputError) and returns the ids of every token.
  virtual PositionIds ids(const Layout& layout, const ParameterSet& params) const = 0;
  // The frequency plan the design was published with ("interleaved" for IL-RoPE), taken with
  // that plan's default sections when the user picks the design (GUI design box, CLI --design
  // without --plan); empty: the design leaves the plan as it is.
  virtual std::string suggestedPlan() const { return {}; }
};

// All designs in the registry's order (core/src/design_registry.cpp; docs/designs.md lists them
// with their rules): the research designs first, then the model families (model_family.h).
const std::vector<const PositionDesign*>& allDesigns();
// Throws InputError listing the known names when `name` is unknown.
const PositionDesign& findDesign(const std::string& name);

}  // namespace ropescope
