// A report's text: a std::string, or for a long report the huge-page buffer it was formatted in
// (large_buffer.h), written out from there without a copy into fresh 4 KiB pages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "ropescope/large_buffer.h"

namespace ropescope {

class ReportText {
 public:
  ReportText() = default;
  ReportText(std::string text) : text_(std::move(text)) {}  // NOLINT: every short report
  ReportText(LargeBuffer<char> buffer, std::size_t length)
      : buffer_(std::move(buffer)), length_(length) {}

  std::string_view view() const {
    return buffer_ ? std::string_view(buffer_.data(), length_) : std::string_view(text_);
  }
  std::string str() const { return std::string(view()); }

 private:
  std::string text_;
  LargeBuffer<char> buffer_;
  std::size_t length_ = 0;
};

}  // namespace ropescope
