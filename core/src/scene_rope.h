// The scene file's rope scaling: the object frequency.rope, {"type": NAME, "max_position_id": P
// (dynamic / longrope), then the rope type's parameters by the keys of its table (switches as
// true / false, lists as arrays of numbers)}. The keys and ranges are the rope type's, the same
// table the CLI's --rope-param and the Python keywords read.
#pragma once

#include <nlohmann/json.hpp>

#include "ropescope/rope_scaling.h"

namespace ropescope::detail {

// The object for an active scaling (RopeScaling::active()).
nlohmann::ordered_json ropeScalingJson(const RopeScaling& rope);

// Reads the object; throws InputError with one line starting "frequency.rope" that names the
// key and the accepted set or range (field: the key). The whole scaling (required keys,
// cross-field rules) is checked with the plan by resolvePairs.
RopeScaling ropeScalingFromJson(const nlohmann::ordered_json& obj);

}  // namespace ropescope::detail
