// Error type for bad user input (layout specs, parameters, scene files).
// Its message is one line a person can act on: the problem and the accepted range.
#pragma once

#include <stdexcept>
#include <string>

namespace ropescope {

// Thrown for any invalid input. The CLI prints what() and exits with status 2; the GUI shows it
// beside the field named by field() (empty when the whole input is at fault).
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message, std::string field = {})
      : std::runtime_error(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

}  // namespace ropescope
