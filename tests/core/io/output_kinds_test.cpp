// What is at an output path decides how ropescope writes it: a symbolic link is
// written through (its target replaced atomically, the link kept), a FIFO and a device are
// written in place and stay what they are, a replaced file keeps its mode and owner, a new file
// gets the umask's mode (read once: no thread ever sees it changed), and a folder, a read-only
// file or a file this user may not write is refused with one line and left as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../../common/fifo_reader.h"
#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"
#include "ropescope/npy.h"
#include "ropescope/scene.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using namespace ropescope;
using ropescope::test::FifoReader;

namespace {

using ropescope::test::readAll;
using ropescope::test::TempDir;

void put(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::size_t temporaries(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

struct stat lstatOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st;
}

mode_t modeOf(const fs::path& p) {
  return lstatOf(p).st_mode & 07777;
}

// The umask as the kernel shows it, read without changing it.
mode_t kernelUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
  ADD_FAILURE() << "no Umask line in /proc/self/status";
  return 0;
}

// The one-line refusal writeFileAtomically gives for `path`, or "" when it wrote.
std::string refusal(const fs::path& path, const std::string& text) {
  try {
    writeFileAtomically(path.string(), text);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

void expectOneLineNaming(const std::string& message, const fs::path& path, const std::string& why) {
  ASSERT_FALSE(message.empty()) << path << " was written, should have been refused";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find(why), std::string::npos) << message;
}

bool isRoot() {
  return ::geteuid() == 0;
}

TEST(OutputKinds, SymlinkIsWrittenThroughAndStaysALink) {
  TempDir dir;
  const fs::path target = dir.path / "real.json", link = dir.path / "link.json";
  put(target, "old");
  fs::create_symlink("real.json", link);  // relative: resolved against the link's folder
  writeFileAtomically(link.string(), std::string("new through the link"));
  EXPECT_EQ(readAll(target), "new through the link");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), fs::path("real.json"));
  EXPECT_TRUE(S_ISREG(lstatOf(target).st_mode));
  EXPECT_EQ(temporaries(dir.path), 0u);

  // A chain of links, one absolute: the final target is replaced, every link kept.
  const fs::path sub = dir.path / "sub";
  fs::create_directories(sub);
  const fs::path second = sub / "second", first = dir.path / "first";
  fs::create_symlink(target, second);
  fs::create_symlink("sub/second", first);
  writeFileAtomically(first.string(), std::string("via two links"));
  EXPECT_EQ(readAll(target), "via two links");
  EXPECT_TRUE(fs::is_symlink(first));
  EXPECT_TRUE(fs::is_symlink(second));
  EXPECT_EQ(checkOutputPath(first.string()).resolved, target.string());
  EXPECT_EQ(checkOutputPath(first.string()).kind, OutputKind::ReplaceFile);
}

TEST(OutputKinds, DanglingSymlinkCreatesItsTarget) {
  TempDir dir;
  const fs::path target = dir.path / "later.json", link = dir.path / "link.json";
  fs::create_symlink("later.json", link);
  ASSERT_FALSE(fs::exists(target));
  writeFileAtomically(link.string(), std::string("created"));
  EXPECT_EQ(readAll(target), "created");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(modeOf(target), 0666 & ~kernelUmask());
  EXPECT_EQ(temporaries(dir.path), 0u);
}

TEST(OutputKinds, SymlinkLoopIsRefused) {
  TempDir dir;
  const fs::path a = dir.path / "a", b = dir.path / "b";
  fs::create_symlink("b", a);
  fs::create_symlink("a", b);
  expectOneLineNaming(refusal(a, "x"), a, "symbolic links");
  EXPECT_TRUE(fs::is_symlink(a));
  EXPECT_TRUE(fs::is_symlink(b));
}

TEST(OutputKinds, FifoIsWrittenInPlaceAndItsReaderGetsTheBytes) {
  TempDir dir;
  const fs::path fifo = dir.path / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  EXPECT_EQ(checkOutputPath(fifo.string()).kind, OutputKind::Direct);  // checks, never blocks
  // More than a pipe holds (64 KiB), so writer and reader must take turns.
  std::string text;
  for (int i = 0; text.size() < (1u << 20); ++i) text += std::to_string(i) + ",";
  FifoReader reader(fifo.string());
  ASSERT_TRUE(reader.opened());
  writeFileAtomically(fifo.string(), text);
  EXPECT_EQ(reader.finish(), text);
  EXPECT_TRUE(S_ISFIFO(lstatOf(fifo).st_mode));
  EXPECT_EQ(modeOf(fifo), 0600u);
  EXPECT_EQ(temporaries(dir.path), 0u);

  // Through a link to the FIFO: the same.
  const fs::path link = dir.path / "link";
  fs::create_symlink(fifo, link);
  FifoReader again(link.string());
  writeFileAtomically(link.string(), std::string("second"));
  EXPECT_EQ(again.finish(), "second");
  EXPECT_TRUE(S_ISFIFO(lstatOf(fifo).st_mode));
  EXPECT_TRUE(fs::is_symlink(link));
}

TEST(OutputKinds, CharacterDeviceStaysADevice) {
  if (!isRoot()) GTEST_SKIP() << "mknod of a character device needs root (CAP_MKNOD)";
  TempDir dir;
  // A private node with the null device's numbers (1, 3): writes are discarded. /dev/null
  // itself is never touched.
  const fs::path dev = dir.path / "null-device";
  if (::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0)
    GTEST_SKIP() << "mknod failed (" << std::strerror(errno)
                 << "): this container may not make device nodes";
  const int probe = ::open(dev.c_str(), O_WRONLY);
  if (probe < 0)
    GTEST_SKIP() << "the device node cannot be opened (" << std::strerror(errno)
                 << "): the temporary folder's file system is mounted nodev";
  ::close(probe);
  ASSERT_EQ(::chmod(dev.c_str(), 0666), 0);  // mknod's mode went through the umask
  EXPECT_EQ(checkOutputPath(dev.string()).kind, OutputKind::Direct);
  const std::string text(300000, 'x');
  writeFileAtomically(dev.string(), text);
  const struct stat st = lstatOf(dev);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device became a regular file";
  EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
  EXPECT_EQ(st.st_mode & 07777, 0666u);
  EXPECT_EQ(temporaries(dir.path), 0u);
}

TEST(OutputKinds, SocketIsNotReplaced) {
  TempDir dir;
  const fs::path sock = dir.path / "s.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.string().size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  // A socket cannot be opened as a file: one line, and the socket is still there.
  expectOneLineNaming(refusal(sock, "x"), sock, "cannot open");
  EXPECT_TRUE(S_ISSOCK(lstatOf(sock).st_mode));
  ::close(fd);
}

TEST(OutputKinds, ReplacedFileKeepsItsMode) {
  TempDir dir;
  for (const mode_t mode : {mode_t(0600), mode_t(0640), mode_t(0664), mode_t(0755)}) {
    const fs::path file = dir.path / ("m" + std::to_string(mode));
    put(file, "old");
    ASSERT_EQ(::chmod(file.c_str(), mode), 0);
    writeFileAtomically(file.string(), std::string("new"));
    EXPECT_EQ(readAll(file), "new");
    EXPECT_EQ(modeOf(file), mode) << "mode " << std::oct << mode << " not kept";
  }
  // Through a link: the target's mode, not the link's.
  const fs::path target = dir.path / "private", link = dir.path / "to-private";
  put(target, "old");
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  fs::create_symlink(target, link);
  writeFileAtomically(link.string(), std::string("new"));
  EXPECT_EQ(modeOf(target), 0600u);
  EXPECT_EQ(temporaries(dir.path), 0u);
}

TEST(OutputKinds, ReplacedFileKeepsItsOwner) {
  if (!isRoot()) GTEST_SKIP() << "giving a file to another user (chown) needs root";
  TempDir dir;
  const fs::path file = dir.path / "owned";
  put(file, "old");
  ASSERT_EQ(::chown(file.c_str(), 4321, 8765), 0);
  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  writeFileAtomically(file.string(), std::string("new"));
  const struct stat st = lstatOf(file);
  EXPECT_EQ(st.st_uid, 4321u);
  EXPECT_EQ(st.st_gid, 8765u);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(readAll(file), "new");
}

TEST(OutputKinds, ReadOnlyFileIsRefusedEvenForRoot) {
  TempDir dir;
  const fs::path file = dir.path / "ro.json";
  put(file, "keep me");
  ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
  expectOneLineNaming(refusal(file, "new"), file, "read-only");
  EXPECT_EQ(readAll(file), "keep me");
  EXPECT_EQ(modeOf(file), 0444u);
  EXPECT_EQ(temporaries(dir.path), 0u);
  // Through a link to it: refused the same, naming the link and its target.
  const fs::path link = dir.path / "link";
  fs::create_symlink(file, link);
  const std::string m = refusal(link, "new");
  expectOneLineNaming(m, link, "read-only");
  EXPECT_NE(m.find(file.string()), std::string::npos) << m;
  EXPECT_EQ(readAll(file), "keep me");
  EXPECT_TRUE(fs::is_symlink(link));
  // checkOutputPath refuses it before any work is done.
  EXPECT_THROW(checkOutputPath(file.string()), InputError);
}

TEST(OutputKinds, FileThisUserMayNotWriteIsRefused) {
  if (!isRoot())
    GTEST_SKIP() << "needs root: the test writes root's 0600 file as uid 65534 (nobody)";
  TempDir dir;
  const fs::path file = dir.path / "root-only";
  put(file, "keep me");
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  ASSERT_EQ(::chmod(dir.path.c_str(), 0777), 0);  // the folder is not what stops it
  // A child that gives up root (uid 65534) tries to write root's 0600 file.
  int pipeFd[2];
  ASSERT_EQ(::pipe(pipeFd), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(pipeFd[0]);
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    std::string message;
    try {
      writeFileAtomically(file.string(), std::string("new"));
    } catch (const InputError& e) {
      message = e.what();
    }
    (void)!::write(pipeFd[1], message.data(), message.size());
    ::_exit(message.empty() ? 1 : 0);
  }
  ::close(pipeFd[1]);
  std::string message;
  char buf[512];
  for (ssize_t n; (n = ::read(pipeFd[0], buf, sizeof buf)) > 0;) message.append(buf, size_t(n));
  ::close(pipeFd[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 3) << "could not become uid 65534";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "uid 65534 replaced root's 0600 file";
  expectOneLineNaming(message, file, "may not write");
  EXPECT_EQ(readAll(file), "keep me");
  EXPECT_EQ(temporaries(dir.path), 0u);
}

TEST(OutputKinds, FolderIsRefused) {
  TempDir dir;
  const fs::path folder = dir.path / "results";
  fs::create_directories(folder / "inside");
  put(folder / "inside" / "f", "x");
  expectOneLineNaming(refusal(folder, "new"), folder, "folder");
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(readAll(folder / "inside" / "f"), "x");
  // A link to a folder: refused too, the link kept.
  const fs::path link = dir.path / "link";
  fs::create_symlink(folder, link);
  expectOneLineNaming(refusal(link, "new"), link, "folder");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(temporaries(dir.path), 0u);
}

TEST(OutputKinds, NewFileGetsTheUmasksMode) {
  TempDir dir;
  // In this process: the umask the process started with, read once.
  EXPECT_EQ(processUmask(), kernelUmask());
  const fs::path here = dir.path / "here";
  writeFileAtomically(here.string(), std::string("x"));
  EXPECT_EQ(modeOf(here), 0666 & ~kernelUmask());
  // Fresh processes under other umasks.
  for (const mode_t mask : {mode_t(022), mode_t(027), mode_t(077), mode_t(002)}) {
    const fs::path file = dir.path / ("mask" + std::to_string(mask));
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::umask(mask);
      ::execl(ROPESCOPE_ATOMIC_CHILD, ROPESCOPE_ATOMIC_CHILD, "--once", file.c_str(), "text",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
    EXPECT_EQ(readAll(file), "text");
    EXPECT_EQ(modeOf(file), 0666 & ~mask) << "umask " << std::oct << mask;
  }
}

TEST(OutputKinds, ConcurrentWritersSeeNoModeRace) {
  const mode_t mask = kernelUmask();
  if (mask == 0) GTEST_SKIP() << "the process umask is 0, so a changed umask cannot show";
  // In memory where there is a tmpfs: fsync costs nothing there, so the writers change files
  // (and, in the old code, the umask) thousands of times a second.
  std::error_code ec;
  TempDir dir(fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path());
  const mode_t expected = 0666 & ~mask;
  // Writers save new files while other threads create files the plain way: a writer that set
  // the umask to 0 for a moment (as the old code did) gives some of them mode 0666.
  constexpr int kWriters = 3, kFilesEach = 3000, kCreators = 2;
  std::atomic<int> writersLeft{kWriters};
  std::atomic<int> badWritten{0}, badCreated{0}, created{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      for (int i = 0; i < kFilesEach; ++i) {
        const fs::path file = dir.path / ("w" + std::to_string(w) + "-" + std::to_string(i));
        writeFileAtomically(file.string(), std::string("x"));
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0 || (st.st_mode & 0777) != expected) ++badWritten;
        fs::remove(file);
      }
      --writersLeft;
    });
  for (int c = 0; c < kCreators; ++c)
    threads.emplace_back([&, c] {
      const fs::path file = dir.path / ("plain" + std::to_string(c));
      while (writersLeft.load() > 0) {
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) continue;
        struct stat st {};
        if (::fstat(fd, &st) != 0 || (st.st_mode & 0777) != expected) ++badCreated;
        ::close(fd);
        ::unlink(file.c_str());
        ++created;
      }
    });
  for (std::thread& t : threads) t.join();
  std::printf("[ modes ] %d files written, %d created beside them\n", kWriters * kFilesEach,
              created.load());
  EXPECT_EQ(badWritten.load(), 0) << "written files with a mode other than " << std::oct
                                  << expected;
  EXPECT_EQ(badCreated.load(), 0) << "files created while a writer had changed the umask";
  EXPECT_GT(created.load(), 0);
  EXPECT_EQ(kernelUmask(), mask);
}

TEST(OutputKinds, AbandonedOutputLeavesTheOldFile) {
  TempDir dir;
  const fs::path file = dir.path / "keep";
  put(file, "old");
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  {
    OutputFile out(file.string());
    out.write("half", 4);
    EXPECT_EQ(temporaries(dir.path), 1u);  // the bytes go elsewhere until commit
  }  // destroyed without commit(): a cancelled or failed export
  EXPECT_EQ(readAll(file), "old");
  EXPECT_EQ(modeOf(file), 0600u);
  EXPECT_EQ(temporaries(dir.path), 0u);
  OutputFile out(file.string());
  out.write("new ", 4);
  out.write("text", 4);
  EXPECT_EQ(readAll(file), "old");
  out.commit();
  EXPECT_EQ(readAll(file), "new text");
  EXPECT_EQ(modeOf(file), 0600u);
}

}  // namespace

namespace {

// Scene saves (File → Save, autosave) and .npy output go through the same path.
TEST(OutputKinds, SceneSavesAndNpyFollowTheSameRules) {
  TempDir dir;
  const Scene scene = defaultScene();
  const fs::path target = dir.path / "paper.json", link = dir.path / "link.json";
  put(target, "old");
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  fs::create_symlink("paper.json", link);
  saveSceneFile(scene, link.string());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(modeOf(target), 0600u);
  EXPECT_TRUE(loadSceneFile(target.string()) == scene);

  const fs::path ro = dir.path / "ro.json";
  put(ro, "keep");
  ASSERT_EQ(::chmod(ro.c_str(), 0444), 0);
  try {
    saveSceneFile(scene, ro.string());
    ADD_FAILURE() << "a read-only scene file was overwritten";
  } catch (const InputError& e) {
    expectOneLineNaming(e.what(), ro, "read-only");
  }
  EXPECT_EQ(readAll(ro), "keep");

  const fs::path fifo = dir.path / "x.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  FifoReader reader(fifo.string());
  const float v[2] = {1.0f, 2.0f};
  writeNpy(fifo.string(), v, 2, {2});
  const std::string bytes = reader.finish();
  EXPECT_EQ(bytes.compare(0, 6, "\x93NUMPY"), 0);
  EXPECT_TRUE(S_ISFIFO(lstatOf(fifo).st_mode));
  EXPECT_EQ(temporaries(dir.path), 0u);
}

}  // namespace
