// The one way ropescope writes a file (scene files, autosave, CLI --out, .npy, figures, GIF
// animations, PNG frames). What is at the path decides how:
// - nothing, or a regular file: the bytes go to a temporary file in the target's folder, are
//   flushed to the disk (fsync), and the temporary file is renamed over the target, so a reader
//   (or the next start after a crash, a kill or a power cut) sees either the old file or the new
//   one, never a mix. A replaced file keeps its mode (and its owner and group where the user may
//   set them); a new file gets 0666 less the process's umask (read once, never changed).
// - a symbolic link: followed to its final target (which is created when the link dangles), and
//   that target is replaced as above; the link stays a link.
// - a device, FIFO, socket or other non-regular file: opened and written directly (no temporary
//   file, no rename), so /dev/null stays a device and a FIFO's reader gets the bytes.
// - one of this process's open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
//   /proc/self/fd/N): written into that descriptor as it is open, so `--out /dev/stdout | cat`
//   feeds the pipe and `--out /dev/stdout >> log` appends to the log (reopening the path would
//   fail for a pipe and replace the file).
// - a folder, a read-only file (no write bit at all: refused even for root) or a file this user
//   may not write: refused with one line (InputError), nothing changed.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <initializer_list>
#include <string>

namespace ropescope {

struct ByteSpan {
  const void* data;
  std::size_t size;
};

// How an output path will be written (see above).
enum class OutputKind {
  NewFile,      // nothing there yet: a temporary file renamed into place
  ReplaceFile,  // a regular file: a temporary file renamed over it, its mode kept
  Direct,       // a device, FIFO or socket, or an open descriptor: written in place
};

struct OutputTarget {
  std::string path;      // as given
  std::string resolved;  // after following symbolic links (== path when none)
  OutputKind kind = OutputKind::NewFile;
  int descriptor = -1;  // Direct: this process's descriptor the path names, else -1
};

// Checks what is at `path` without opening or changing anything (a FIFO is not opened, so this
// never blocks): throws InputError (field `field`) for a folder, a read-only file, a file this
// user may not write, a link loop, an empty name. Callers use it to refuse early, before the
// work that produces the bytes.
OutputTarget checkOutputPath(const std::string& path, const std::string& field = "out");

// A file being written: bytes are streamed in with write(); commit() makes them the file's
// content. Destroyed without commit(), the temporary file is removed and the target left as it
// was (a Direct target has already received what was written).
class OutputFile {
 public:
  explicit OutputFile(const std::string& path, const std::string& field = "out");
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t size);  // throws InputError (disk full, ...)
  void commit();                                   // throws InputError; at most once
  const OutputTarget& target() const { return target_; }

 private:
  void fail(const std::string& what, int error);
  void abandon() noexcept;

  OutputTarget target_;
  std::string field_;
  std::string temporary_;  // empty for Direct
  int fd_ = -1;
  mode_t mode_ = 0;  // ReplaceFile: the mode to keep
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  bool committed_ = false;
};

// Writes `parts` (in order) to `path` by the rules above. On failure the temporary file is
// removed, the previous file is left as it was, and InputError names `path` (field `field`).
// Temporary files are named "<target>.tmp-<pid>-XXXXXX"; ones left by a process that no longer
// runs (killed mid-save) are removed by the next write to the same path.
void writeFileAtomically(const std::string& path, std::initializer_list<ByteSpan> parts,
                         const std::string& field = "out");
inline void writeFileAtomically(const std::string& path, const std::string& text,
                                const std::string& field = "out") {
  writeFileAtomically(path, {ByteSpan{text.data(), text.size()}}, field);
}

// The process's umask, read once (from /proc/self/status where the kernel shows it, so it is
// never changed even for a moment; else by the umask() call, once, at start-up).
mode_t processUmask();

// The temporary files next to `path` that a process killed mid-write left behind (their
// writer's pid no longer runs); writeFileAtomically removes them. Exposed for tests.
std::size_t removeStaleTemporaries(const std::string& path);

}  // namespace ropescope
