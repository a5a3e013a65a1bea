// Named, range-checked parameters of position designs and frequency plans.
// Validation lives next to the parameter so the CLI and the GUI give the same message.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ropescope {

// tokens_per_second (temporal ids per second of video: Qwen2-VL's M-RoPE, Qwen2.5-VL, the
// omni families) is in (0, kMaxTokensPerSecond], as a design parameter and in a config.json.
inline constexpr double kMaxTokensPerSecond = 1000.0;

struct ParameterSpec {
  enum class Kind { Number, Integer, Bool, Choice };

  std::string key;    // "alpha"
  std::string label;  // "α (angle mix)"
  std::string help;   // one sentence for tooltips and --help
  Kind kind = Kind::Number;
  double min = 0.0;
  double max = 1.0;
  bool minExclusive = false;  // range (min, max] instead of [min, max]
  double defaultValue = 0.0;
  std::vector<std::string> choices;  // Kind::Choice: value is the index

  // Empty when value is acceptable; else one line naming the parameter and its range.
  std::string check(double value) const;
  std::string rangeText() const;
};

// Values by key; absent keys take the spec's default.
class ParameterSet {
 public:
  void set(const std::string& key, double value) { values_[key] = value; }
  void erase(const std::string& key) { values_.erase(key); }  // back to the spec's default
  std::optional<double> find(const std::string& key) const;
  double get(const std::string& key, const std::vector<ParameterSpec>& specs) const;
  const std::map<std::string, double>& values() const { return values_; }
  bool operator==(const ParameterSet&) const = default;

 private:
  std::map<std::string, double> values_;
};

// Throws InputError (field = key) for the first unknown key or out-of-range value.
void validateParameters(const ParameterSet& values, const std::vector<ParameterSpec>& specs);

const ParameterSpec* findSpec(const std::vector<ParameterSpec>& specs, const std::string& key);
// The spec of `key` among a design's `specs`; else InputError (field = key), the one message for
// it (CLI, scene files, Python): 'design circle has no parameter "x" (accepted: alpha, ...)'.
const ParameterSpec& requireSpec(const std::vector<ParameterSpec>& specs, const std::string& key,
                                 const std::string& design);
// The keys of `specs`, in order (the names an unknown key's message lists).
std::vector<std::string> parameterKeys(const std::vector<ParameterSpec>& specs);

// A value given by name, as the CLI and the scene file take them: a Choice's name ("auto")
// gives its index, true/false a Bool's 1/0. nullopt for any other text (a number, which the
// caller parses, or a bad name, which it refuses naming spec.rangeText()).
std::optional<double> namedParameterValue(const ParameterSpec& spec, const std::string& text);

}  // namespace ropescope
