// A check of the LIST chunks of a RIFF/RIFX/RF64 WAVE file, run before libsndfile opens it.
// libsndfile 1.2's LIST/INFO parser (wavlike_subchunk_parse) adds a sub-chunk's 32-bit size to
// the bytes read in 32-bit arithmetic: a size near 2^32 wraps around, the parser jumps backwards
// inside its header buffer and loops forever without reading the file (found by the sound fuzz
// target; tests/fuzz/regressions/sound/wav-list-*.wav). Files whose LIST sub-chunks do
// not fit inside their LIST chunk are refused here instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ropescope {

// Reads up to `n` bytes at `offset` into `out`, returning how many it read (0 at the end).
using ByteReader = std::function<std::size_t(std::uint64_t offset, void* out, std::size_t n)>;

// "" when the file is not a WAVE file or its LIST chunks are sound; otherwise the problem, e.g.
// "has a damaged LIST chunk: sub-chunk 'datO' claims 4294967283 bytes where 52 remain".
std::string wavListProblem(const ByteReader& read, std::uint64_t fileSize);

}  // namespace ropescope
