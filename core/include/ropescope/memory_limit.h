// How many tokens a layout may have: set by the memory of the machine ropescope runs on, not by
// a constant. Every input path (layout specs, scene files, tokens files, ids files) asks
// checkTokensFit before it allocates per-token memory, so a layout too large for the machine is
// refused at once in one line that names its size, the memory it would need and what to do.
#pragma once

#include <cstdint>
#include <string>

namespace ropescope {

// Memory a whole ropescope process needs per token of its layout, at most: the ids (24 bytes)
// and what each token is (20 bytes), a metric's per-token arrays, the decimated views and the
// output buffers, with room (docs/dev/performance.md#memory measures it).
inline constexpr std::uint64_t kBytesPerToken = 256;

// Bytes this process may use: ROPESCOPE_MEMORY_LIMIT when set (a whole number of bytes, or with
// a K, M, G or T suffix: powers of 1024; read at every call), else the kernel's MemAvailable
// (/proc/meminfo) when the process first asks, else the physical memory. A value that is not such
// a number throws InputError naming it.
std::uint64_t availableMemoryBytes();

// The most tokens a layout may have here: availableMemoryBytes() / kBytesPerToken, at most
// kMaxLayoutTokens (layout.h: what ropescope can index).
std::uint64_t maxTokensInMemory();

// Throws InputError (field `what`) when `tokens` is more than maxTokensInMemory():
// "layout has 4294967296 tokens: it needs about 1024 GiB (256 bytes a token) and this machine
// has 21.4 GiB available (at most 89,841,254 tokens); use a shorter layout, ..."
void checkTokensFit(std::uint64_t tokens, const std::string& what);

// "1.50 GiB", "256 MiB", "21.4 GiB": the size in the largest binary unit below it, 3 digits.
std::string formatBytes(std::uint64_t bytes);

}  // namespace ropescope
