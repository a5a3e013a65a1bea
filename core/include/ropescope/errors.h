// Error type for bad user input (layout specs, parameters, scene files).
// Its message is one line a person can act on: the problem and the accepted range.
#pragma once

#include <stdexcept>
#include <string>

namespace ropescope {

// Thrown for any invalid input. The CLI prints what() and exits with status 2; the GUI shows it
// beside the field named by field() (empty when the whole input is at fault).
// Control characters from the input (a newline in a layout item, a stray byte of a file
// header) are shown as \xHH, so the message stays one line whatever the input holds.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message, std::string field = {})
      : std::runtime_error(oneLine(message)), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  static std::string oneLine(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u != 0x7f) {
        out += c;
      } else {
        out += "\\x";
        out += "0123456789ABCDEF"[u >> 4];
        out += "0123456789ABCDEF"[u & 15];
      }
    }
    return out;
  }
  std::string field_;
};

// "1 head", "2 heads": a count and its noun, for messages.
inline std::string countOf(long long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace ropescope
