// Error type for bad user input (layout specs, parameters, scene files).
// Its message is one line a person can act on: the problem and the accepted range.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace ropescope {

// The length of the well-formed UTF-8 sequence of 2 to 4 bytes at text[i], else 0.
inline std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = at(0);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {  // not overlong, not a surrogate
    n = 3;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {  // not overlong, at most U+10FFFF
    n = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  }
  if (n == 0 || i + n > text.size() || at(1) < lo || at(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(k) < 0x80 || at(k) > 0xBF) return 0;
  return n;
}

// The character that starts `text` as written (one to four bytes), or its first byte when that
// is not well-formed UTF-8: for messages that quote an unexpected character.
inline std::string firstCharacter(std::string_view text) {
  if (text.empty()) return {};
  const std::size_t n = utf8SequenceLength(text, 0);
  return std::string(text.substr(0, n > 0 ? n : 1));
}

// Thrown for any invalid input. The CLI prints what() and exits with status 2; the GUI shows it
// beside the field named by field() (empty when the whole input is at fault).
// Control characters from the input (a newline in a layout item, a stray byte of a file
// header) and bytes that are not UTF-8 (a PNG's 0x89 quoted by the JSON parser) are shown as
// \xHH, so the message stays one line of valid text whatever the input holds.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message, std::string field = {})
      : std::runtime_error(oneLine(message)), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  static std::string oneLine(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
      const auto u = static_cast<unsigned char>(text[i]);
      const std::size_t n =
          u < 0x80 ? (u >= 0x20 && u != 0x7f ? 1 : 0) : utf8SequenceLength(text, i);
      if (n > 0) {
        out.append(text, i, n);
        i += n;
      } else {
        out += "\\x";
        out += "0123456789ABCDEF"[u >> 4];
        out += "0123456789ABCDEF"[u & 15];
        ++i;
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
