#include "ropescope/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>

#include "ropescope/errors.h"

namespace ropescope {

namespace {

namespace fs = std::filesystem;

std::string tempPrefix(const std::string& path) {
  return fs::path(path).filename().string() + ".tmp-";
}

bool writeAll(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    size -= std::size_t(n);
  }
  return true;
}

// The folder's entry for the new file must reach the disk too, or a power cut can undo the
// rename; failures here are harmless (some file systems refuse fsync on a folder).
void syncFolder(const fs::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

std::size_t removeStaleTemporaries(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  const std::string prefix = tempPrefix(path);
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    // "<pid>-XXXXXX": a writer that still runs (another save in progress) keeps its file.
    const std::string rest = name.substr(prefix.size());
    char* stop = nullptr;
    const long pid = std::strtol(rest.c_str(), &stop, 10);
    if (stop == rest.c_str() || *stop != '-' || pid <= 0) continue;
    if (pid == ::getpid()) continue;  // our own: removed by the writer that made it
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
}

void writeFileAtomically(const std::string& path, std::initializer_list<ByteSpan> parts,
                         const std::string& field) {
  const std::string cannot = "cannot write \"" + path + "\"";
  if (path.empty()) throw InputError("cannot write a file with an empty name", field);
  removeStaleTemporaries(path);
  std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    throw InputError(cannot + " (" + std::strerror(errno) + ": no such folder or no permission?)",
                     field);
  int failure = 0;
  for (const ByteSpan& part : parts)
    if (!failure && !writeAll(fd, part.data, part.size)) failure = errno;
  if (!failure && ::fsync(fd) != 0) failure = errno;
  // mkstemp makes the file 0600; a saved file gets the usual permissions (umask applies).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (!failure && ::fchmod(fd, 0666 & ~mask) != 0) failure = errno;
  if (::close(fd) != 0 && !failure) failure = errno;
  if (failure) {
    std::remove(tmp.c_str());
    throw InputError(cannot + " (" + std::strerror(failure) + "; disk full?)", field);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw InputError("cannot replace \"" + path + "\" (" + std::strerror(e) + ")", field);
  }
  syncFolder(fs::path(path).parent_path());
}

}  // namespace ropescope
