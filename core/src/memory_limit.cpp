#include "ropescope/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/layout.h"

namespace ropescope {

namespace {

// "123", "512M", "24G": bytes; 0 when the text is not such a number.
std::uint64_t parseByteCount(const char* text) {
  if (text == nullptr || *text < '0' || *text > '9') return 0;  // strtoull would take "-1"
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || v == 0) return 0;
  int shift = 0;
  switch (*end) {
    case '\0':
      break;
    case 'K':
    case 'k':
      shift = 10;
      break;
    case 'M':
    case 'm':
      shift = 20;
      break;
    case 'G':
    case 'g':
      shift = 30;
      break;
    case 'T':
    case 't':
      shift = 40;
      break;
    default:
      return 0;
  }
  if (*end != '\0' && end[1] != '\0') return 0;
  if (v > (~std::uint64_t{0} >> shift)) return 0;
  return static_cast<std::uint64_t>(v) << shift;
}

std::uint64_t measuredMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long kib = 0;
    if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1 && kib > 0)
      return static_cast<std::uint64_t>(kib) * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * page;
  return std::uint64_t{1} << 30;  // nothing known: assume 1 GiB
}

std::string withThousands(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::uint64_t availableMemoryBytes() {
  const char* text = std::getenv("ROPESCOPE_MEMORY_LIMIT");
  if (text != nullptr && *text != '\0') {
    const std::uint64_t set = parseByteCount(text);
    if (set == 0)  // a setting that cannot be read is said, not ignored
      throw InputError(std::string("ROPESCOPE_MEMORY_LIMIT must be a whole number of bytes above "
                                   "0, optionally with K, M, G or T (got \"") +
                           text + "\")",
                       "memory");
    return set;
  }
  static const std::uint64_t measured = measuredMemoryBytes();  // stable within a process
  return measured;
}

std::uint64_t maxTokensInMemory() {
  return std::min<std::uint64_t>(availableMemoryBytes() / kBytesPerToken, kMaxLayoutTokens);
}

std::string formatBytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024.0 && unit < 6) {
    v /= 1024.0;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + " bytes";
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(v < 10.0 ? 2 : v < 100.0 ? 1 : 0);  // three digits
  s << v << ' ' << kUnits[unit];
  return s.str();
}

void checkTokensFit(std::uint64_t tokens, const std::string& what) {
  const std::uint64_t most = maxTokensInMemory();
  if (tokens <= most) return;
  const bool indexable = tokens <= kMaxLayoutTokens;
  const std::uint64_t need =
      tokens > (~std::uint64_t{0}) / kBytesPerToken ? ~std::uint64_t{0} : tokens * kBytesPerToken;
  std::string msg = what + " has " + withThousands(tokens) + " tokens: ";
  if (indexable)
    msg += "it needs about " + formatBytes(need) + " (" + std::to_string(kBytesPerToken) +
           " bytes a token) and this machine has " + formatBytes(availableMemoryBytes()) +
           " available (at most " + withThousands(most) +
           " tokens); use a shorter layout or a machine with more memory "
           "(ROPESCOPE_MEMORY_LIMIT=BYTES overrides the measured memory)";
  else
    msg += "more than ropescope can index (1.." + withThousands(kMaxLayoutTokens) +
           " tokens; it would need about " + formatBytes(need) + ")";
  throw InputError(msg, what);
}

}  // namespace ropescope
