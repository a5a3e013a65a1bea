#include "ropescope/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>

#include "ropescope/errors.h"

namespace ropescope {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxLinks = 40;  // the kernel's own limit on links followed in one lookup

std::string tempPrefix(const std::string& path) {
  return fs::path(path).filename().string() + ".tmp-";
}

std::string quote(const std::string& s) {
  return "\"" + s + "\"";
}

// The path as the user gave it, with the link's target when one was followed.
std::string named(const OutputTarget& t) {
  return t.resolved == t.path ? quote(t.path)
                              : quote(t.path) + " (a link to " + quote(t.resolved) + ")";
}

// N where `path` names this process's descriptor N (/dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N, /proc/<this pid>/fd/N; /dev/stdout and its kin are links to the
// second); -1 for any other path.
int descriptorNamed(const std::string& path) {
  const std::string pid = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string prefix :
       {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", pid.c_str()}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = path.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoi(digits);
  }
  return -1;
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

mode_t readUmask() {
  // Linux 4.7+ shows it; reading it changes nothing, so no other thread can see a wrong mask.
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) {
      char* end = nullptr;
      const unsigned long m = std::strtoul(line.c_str() + 6, &end, 8);
      if (end != line.c_str() + 6 && m <= 0777) return mode_t(m);
    }
  // Older kernels: the only portable read sets it; done once, at start-up (below).
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

// Read before main() runs (no worker thread exists yet), and never again.
[[maybe_unused]] const mode_t kUmaskAtStart = processUmask();

}  // namespace

mode_t processUmask() {
  static const mode_t mask = readUmask();  // thread-safe initialisation
  return mask;
}

OutputTarget checkOutputPath(const std::string& path, const std::string& field) {
  if (path.empty()) throw InputError("cannot write a file with an empty name", field);
  OutputTarget t;
  t.path = path;
  t.resolved = path;
  const auto refuse = [&](const std::string& why) {
    throw InputError("cannot write " + named(t) + ": " + why, field);
  };
  struct stat st {};
  for (int links = 0;; ++links) {
    if (const int fd = descriptorNamed(t.resolved); fd >= 0) {
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags < 0) refuse("descriptor " + std::to_string(fd) + " is not open");
      if ((flags & O_ACCMODE) == O_RDONLY)
        refuse("descriptor " + std::to_string(fd) + " is open for reading only");
      t.kind = OutputKind::Direct;
      t.descriptor = fd;
      return t;
    }
    if (::lstat(t.resolved.c_str(), &st) != 0) {
      const int e = errno;
      if (e == ENOENT) break;  // a new file (the folder is checked below)
      refuse(std::strerror(e));
    }
    if (!S_ISLNK(st.st_mode)) break;
    if (links == kMaxLinks) refuse("too many symbolic links (a loop?)");
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(t.resolved.c_str(), target.data(), target.size());
    if (n < 0) refuse(std::strerror(errno));
    target.resize(std::size_t(n));
    const fs::path to(target);
    t.resolved =
        to.is_absolute() ? to.string() : (fs::path(t.resolved).parent_path() / to).string();
  }
  const bool exists = ::lstat(t.resolved.c_str(), &st) == 0;
  if (exists) {
    if (S_ISDIR(st.st_mode)) refuse("it is a folder (give a file name)");
    if ((st.st_mode & 0222) == 0) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
      refuse(std::string("the file is read-only (mode ") + mode +
             "); make it writable or give another name");
    }
    if (::faccessat(AT_FDCWD, t.resolved.c_str(), W_OK, AT_EACCESS) != 0)
      refuse("this user may not write it (" + std::string(std::strerror(errno)) + ")");
    if (!S_ISREG(st.st_mode)) {
      t.kind = OutputKind::Direct;
      return t;
    }
    t.kind = OutputKind::ReplaceFile;
  }
  // A temporary file is made in the target's folder and renamed: the folder must take it.
  const fs::path parent = fs::path(t.resolved).parent_path();
  const std::string dir = parent.empty() ? std::string(".") : parent.string();
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode)) refuse("no folder " + quote(dir));
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
    refuse("this user may not create files in the folder " + quote(dir) + " (" +
           std::strerror(errno) + ")");
  return t;
}

OutputFile::OutputFile(const std::string& path, const std::string& field)
    : target_(checkOutputPath(path, field)), field_(field) {
  if (target_.kind == OutputKind::Direct) {
    // No O_CREAT, no O_TRUNC: what is there stays what it is. Blocks on a FIFO until it has a
    // reader, as any writer of a FIFO does. An open descriptor is written through a copy of it
    // (closing the copy leaves it open), at its offset and in its mode (appending or not).
    fd_ = target_.descriptor >= 0
              ? ::fcntl(target_.descriptor, F_DUPFD_CLOEXEC, 0)
              : ::open(target_.resolved.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail("cannot open", errno);
    return;
  }
  if (target_.kind == OutputKind::ReplaceFile) {
    struct stat st {};
    if (::stat(target_.resolved.c_str(), &st) == 0) {
      mode_ = st.st_mode & 07777;
      uid_ = st.st_uid;
      gid_ = st.st_gid;
    } else {
      target_.kind = OutputKind::NewFile;  // removed since the check
    }
  }
  removeStaleTemporaries(target_.resolved);
  temporary_ = target_.resolved + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX";
  fd_ = ::mkstemp(temporary_.data());
  if (fd_ < 0) {
    const int e = errno;
    temporary_.clear();
    fail("cannot create a temporary file beside it", e);
  }
}

OutputFile::~OutputFile() {
  if (!committed_) abandon();
}

void OutputFile::abandon() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) std::remove(temporary_.c_str());
  temporary_.clear();
}

void OutputFile::fail(const std::string& what, int error) {
  abandon();
  committed_ = true;  // nothing more to do
  const char* hint = error == ENOSPC || error == EDQUOT ? "; disk full?" : "";
  throw InputError(what + " " + named(target_) + " (" + std::strerror(error) + hint + ")", field_);
}

void OutputFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw InputError("cannot write " + named(target_) + ": already closed", field_);
  if (!writeAll(fd_, data, size)) fail("cannot write", errno);
}

void OutputFile::commit() {
  if (fd_ < 0) throw InputError("cannot write " + named(target_) + ": already closed", field_);
  if (target_.kind == OutputKind::Direct) {
    const int fd = fd_;
    fd_ = -1;
    committed_ = true;
    if (::close(fd) != 0) {
      const int e = errno;
      throw InputError("cannot write " + named(target_) + " (" + std::strerror(e) + ")", field_);
    }
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot write", errno);
  // mkstemp makes the file 0600: a replaced file keeps its mode and owner, a new one gets the
  // usual permissions (umask applies).
  mode_t mode = 0666 & ~processUmask();
  if (target_.kind == OutputKind::ReplaceFile) {
    // Owner first: chown clears set-id bits, the chmod after it restores what was there. A user
    // who may not give the file away (EPERM) keeps it as theirs, in the old group if allowed.
    if (::fchown(fd_, uid_, gid_) != 0) (void)::fchown(fd_, uid_t(-1), gid_);
    mode = mode_;
  }
  if (::fchmod(fd_, mode) != 0) fail("cannot write", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int e = errno;
    fail("cannot write", e);
  }
  if (std::rename(temporary_.c_str(), target_.resolved.c_str()) != 0) fail("cannot replace", errno);
  temporary_.clear();
  committed_ = true;
  syncFolder(fs::path(target_.resolved).parent_path());
}

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
  OutputFile out(path, field);
  for (const ByteSpan& part : parts) out.write(part.data, part.size);
  out.commit();
}

}  // namespace ropescope
