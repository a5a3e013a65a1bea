// Atomic file replacement: the bytes go to a temporary file in the target's folder, are flushed
// to the disk (fsync), and the temporary file is renamed over the target, so a reader (or the
// next start after a crash, a kill or a power cut) sees either the old file or the new one,
// never a mix. Every file ropescope writes (scene files, CLI --out, .npy) goes through here.
#pragma once

#include <cstddef>
#include <string>

namespace ropescope {

// Replaces `path` with `parts` (written in order). On failure the temporary file is removed,
// the previous file is left as it was, and InputError names `path` (field `field`).
// Temporary files are named "<path>.tmp-<pid>-XXXXXX"; ones left by a process that no longer
// runs (killed mid-save) are removed by the next write to the same path.
struct ByteSpan {
  const void* data;
  std::size_t size;
};
void writeFileAtomically(const std::string& path, std::initializer_list<ByteSpan> parts,
                         const std::string& field = "out");
inline void writeFileAtomically(const std::string& path, const std::string& text,
                                const std::string& field = "out") {
  writeFileAtomically(path, {ByteSpan{text.data(), text.size()}}, field);
}

// The temporary files next to `path` that a process killed mid-write left behind (their
// writer's pid no longer runs); writeFileAtomically removes them. Exposed for tests.
std::size_t removeStaleTemporaries(const std::string& path);

}  // namespace ropescope
