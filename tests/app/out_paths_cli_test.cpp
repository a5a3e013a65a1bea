// Every writer behind `--out` × every kind of thing already at the path: the rule of
// core's one output path holds for each subcommand and each figure, animation and data format.
//   nothing there       → written (mode 0666 less the umask)
//   regular 0600 file   → replaced whole, still 0600
//   symbolic link       → its target replaced (mode kept), the link still a link
//   dangling link       → its target created, the link still a link
//   FIFO                → a reader gets the bytes; still a FIFO
//   character device    → written in place (mknod'd null device; needs root); still a device
//   read-only file      → exit 2, one line naming it "read-only", unchanged (even as root)
//   folder              → exit 2, one line saying it is a folder, unchanged
// PNG frame sequences go into a folder instead: an existing folder takes them, everything else
// is refused with one line, and a new name with an image extension (anim.png) is not made a
// folder. Exit status is always 0 or 2, never a crash; no temporary file is left behind.
// OutPathsCliX.* and OutPathsViewsX.* draw 3-D views and need an X display (run under xvfb-run,
// label gui).
#include <fcntl.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>

#include "../common/fifo_reader.h"
#include "cli_harness.h"

using namespace ropescope::cli_harness;
using ropescope::test::FifoReader;

namespace {

enum class Kind { None, Regular600, Symlink, Dangling, Fifo, CharDevice, ReadOnly, Folder };

const Kind kKinds[] = {Kind::None, Kind::Regular600, Kind::Symlink,  Kind::Dangling,
                       Kind::Fifo, Kind::CharDevice, Kind::ReadOnly, Kind::Folder};

const char* kindName(Kind k) {
  switch (k) {
    case Kind::None:
      return "none";
    case Kind::Regular600:
      return "regular-0600";
    case Kind::Symlink:
      return "symlink";
    case Kind::Dangling:
      return "dangling-symlink";
    case Kind::Fifo:
      return "fifo";
    case Kind::CharDevice:
      return "char-device";
    case Kind::ReadOnly:
      return "read-only";
    case Kind::Folder:
      return "folder";
  }
  return "?";
}

// One writer: the arguments before --out, the output's file name, and how its bytes start.
struct Writer {
  std::string name;
  std::vector<std::string> args;
  std::string file;   // the name given to --out (its extension picks the format)
  std::string magic;  // the first bytes of a good output
};

// gtest prints a parameter in failure lines: its name, not its bytes.
void PrintTo(const Writer& w, std::ostream* os) {
  *os << w.name;
}

const std::string kOld = "old content\n";

mode_t processUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

struct stat lstatOf(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0) st.st_mode = 0;
  return st;
}

std::size_t temporaries(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

bool isRoot() {
  return ::geteuid() == 0;
}

class OutPaths : public ::testing::TestWithParam<Writer> {
 protected:
  void SetUp() override {
    work_ = makeWorkDir("ropescope-outpaths-" + GetParam().name);
    fs::copy_file(fs::path(ROPESCOPE_SAMPLES) / "castle.png", work_ / "castle.png");
  }
  void TearDown() override { fs::remove_all(work_); }

  ProcessResult run(const std::string& out) {
    std::vector<std::string> a = GetParam().args;
    a.push_back("--out");
    a.push_back(out);
    return runProcess(work_, work_, a, hideDisplay_);
  }

  // What the writer gives on a fresh path: its bytes are what the FIFO must receive.
  std::string reference() {
    const fs::path ref = work_ / "reference" / GetParam().file;
    fs::create_directories(ref.parent_path());
    const ProcessResult r = run(ref.string());
    EXPECT_EQ(r.status, 0) << r.err;
    return slurp(ref);
  }

  void check(Kind kind);
  void checkFailedWrite();

  fs::path work_;
  bool hideDisplay_ = true;
};

void OutPaths::check(Kind kind) {
  const Writer& w = GetParam();
  const std::string context = w.name + " --out <" + kindName(kind) + ">";
  const fs::path dir = work_ / kindName(kind);
  fs::create_directories(dir);
  const fs::path out = dir / w.file;
  const fs::path target = dir / ("target-" + w.file);
  const mode_t newMode = 0666 & ~processUmask();
  switch (kind) {
    case Kind::None:
      break;
    case Kind::Regular600:
    case Kind::ReadOnly: {
      std::ofstream(out) << kOld;
      ASSERT_EQ(::chmod(out.c_str(), kind == Kind::ReadOnly ? 0444 : 0600), 0);
      break;
    }
    case Kind::Symlink:
      std::ofstream(target) << kOld;
      ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
      fs::create_symlink(target.filename(), out);
      break;
    case Kind::Dangling:
      fs::create_symlink(target.filename(), out);
      break;
    case Kind::Fifo:
      ASSERT_EQ(::mkfifo(out.c_str(), 0600), 0) << std::strerror(errno);
      break;
    case Kind::CharDevice:
      ASSERT_EQ(::mknod(out.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0) << std::strerror(errno);
      ASSERT_EQ(::chmod(out.c_str(), 0666), 0);
      break;
    case Kind::Folder:
      fs::create_directories(out / "inside");
      std::ofstream(out / "inside" / "keep") << kOld;
      break;
  }
  std::unique_ptr<FifoReader> reader;
  if (kind == Kind::Fifo) reader = std::make_unique<FifoReader>(out.string());
  const ProcessResult r = run(out.string());
  const std::string received = reader ? reader->finish() : std::string();
  ASSERT_TRUE(r.status == 0 || r.status == 2)
      << context << ": exit status " << r.status << "\nstderr: " << r.err;

  switch (kind) {
    case Kind::None:
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      EXPECT_TRUE(S_ISREG(lstatOf(out).st_mode)) << context;
      EXPECT_EQ(lstatOf(out).st_mode & 07777, newMode) << context;
      EXPECT_EQ(slurp(out).compare(0, w.magic.size(), w.magic), 0) << context;
      break;
    case Kind::Regular600:
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      EXPECT_TRUE(S_ISREG(lstatOf(out).st_mode)) << context;
      EXPECT_EQ(lstatOf(out).st_mode & 07777, 0600u) << context << ": mode not kept";
      EXPECT_EQ(slurp(out).compare(0, w.magic.size(), w.magic), 0) << context;
      break;
    case Kind::Symlink:
    case Kind::Dangling:
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      EXPECT_TRUE(fs::is_symlink(out)) << context << ": the link was replaced";
      EXPECT_EQ(fs::read_symlink(out), target.filename()) << context;
      EXPECT_TRUE(S_ISREG(lstatOf(target).st_mode)) << context;
      EXPECT_EQ(slurp(target).compare(0, w.magic.size(), w.magic), 0)
          << context << ": the link's target was not written";
      EXPECT_EQ(lstatOf(target).st_mode & 07777, kind == Kind::Symlink ? 0640u : newMode)
          << context;
      break;
    case Kind::Fifo:
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      EXPECT_TRUE(S_ISFIFO(lstatOf(out).st_mode)) << context << ": the FIFO was replaced";
      EXPECT_EQ(lstatOf(out).st_mode & 07777, 0600u) << context;
      ASSERT_GE(received.size(), w.magic.size()) << context << ": the reader got nothing";
      EXPECT_EQ(received.compare(0, w.magic.size(), w.magic), 0) << context;
      if (w.magic != "%PDF")  // a PDF carries its creation time
        EXPECT_EQ(received, reference()) << context << ": the reader got other bytes";
      break;
    case Kind::CharDevice: {
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      const struct stat st = lstatOf(out);
      EXPECT_TRUE(S_ISCHR(st.st_mode)) << context << ": the device was replaced";
      EXPECT_EQ(st.st_rdev, ::makedev(1, 3)) << context;
      break;
    }
    case Kind::ReadOnly:
      expectOneLineError(r, context, {out.string(), "read-only"});
      EXPECT_EQ(slurp(out), kOld) << context;
      EXPECT_EQ(lstatOf(out).st_mode & 07777, 0444u) << context;
      break;
    case Kind::Folder:
      expectOneLineError(r, context, {out.string(), "folder"});
      EXPECT_TRUE(fs::is_directory(out)) << context;
      EXPECT_EQ(slurp(out / "inside" / "keep"), kOld) << context;
      break;
  }
  EXPECT_EQ(temporaries(work_), 0u) << context << ": a temporary file was left";
}

constexpr const char* kNeedsRoot = "needs root: mknod of a character device (CAP_MKNOD)";

// Every kind but the device, which needs root (its own test below).
TEST_P(OutPaths, EveryKindOfPath) {
  for (Kind kind : kKinds) {
    if (kind == Kind::CharDevice) continue;
    SCOPED_TRACE(kindName(kind));
    check(kind);
  }
}

TEST_P(OutPaths, CharacterDevice) {
  if (!isRoot()) GTEST_SKIP() << kNeedsRoot;
  check(Kind::CharDevice);
}

// The writer under a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored): every write past `limit`
// bytes fails with EFBIG, as on a full disk, after the output has been opened. Its stdout and
// stderr are pipes, which the limit does not touch.
ProcessResult runWithFileSizeLimit(const fs::path& cwd, const std::vector<std::string>& args,
                                   rlim_t limit, bool hideDisplay = true) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit l{limit, limit};
    if (::setrlimit(RLIMIT_FSIZE, &l) != 0 || ::chdir(cwd.c_str()) != 0) _exit(127);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    execRopescope(args, hideDisplay);
  }
  ::close(out[1]);
  ::close(err[1]);
  ProcessResult r;
  // Both pipes drained while the writer runs (a full pipe would stop it).
  std::thread drainOut([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) r.out.append(buf, std::size_t(n));
  });
  char buf[4096];
  for (ssize_t n; (n = ::read(err[0], buf, sizeof buf)) > 0;) r.err.append(buf, std::size_t(n));
  drainOut.join();
  ::close(out[0]);
  ::close(err[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

// A write that fails half-way (the disk full, a quota) leaves what was at the path as it was: a
// replaced file, a link's target; no temporary file stays. Every output is over 64 bytes.
void OutPaths::checkFailedWrite() {
  const Writer& w = GetParam();
  const fs::path dir = work_ / "full";
  fs::create_directories(dir);
  const fs::path file = dir / w.file;
  const fs::path link = dir / ("link-" + w.file);
  std::ofstream(file) << kOld;
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  fs::create_symlink(file.filename(), link);
  for (const fs::path& out : {file, link}) {
    const std::string context = w.name + " --out " + out.filename().string() + " (64-byte limit)";
    std::vector<std::string> a = w.args;
    a.push_back("--out");
    a.push_back(out.string());
    const ProcessResult r = runWithFileSizeLimit(work_, a, 64, hideDisplay_);
    expectOneLineError(r, context, {out.string(), "File too large"});
    EXPECT_EQ(slurp(file), kOld) << context << ": the old file was changed";
    EXPECT_EQ(lstatOf(file).st_mode & 07777, 0600u) << context;
    EXPECT_TRUE(fs::is_symlink(link)) << context;
    EXPECT_EQ(temporaries(work_), 0u) << context << ": a temporary file was left";
  }
}

TEST_P(OutPaths, AFailedWriteLeavesTheOldFile) {
  checkFailedWrite();
}

std::vector<Writer> dataWriters() {
  const std::vector<std::string> layout = {"--layout", "t3,i2x3,t2"};
  auto with = [&](std::string cmd, std::vector<std::string> extra) {
    std::vector<std::string> a = {std::move(cmd)};
    a.insert(a.end(), layout.begin(), layout.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  return {
      {"ptd", with("ptd", {}), "ptd.json", "{"},
      {"bias", with("bias", {}), "bias.json", "{"},
      {"ids", with("ids", {}), "ids.json", "{"},
      {"ids_csv", with("ids", {"--format", "csv"}), "ids.csv", "index,"},
      {"decay", {"decay", "--max-distance", "32"}, "decay.json", "{"},
      {"freqs", {"freqs"}, "freqs.json", "{"},
      {"grid", {"grid", "castle.png"}, "grid.json", "["},
      {"attention", with("attention", {"--head-dim", "16", "--backend", "cpu"}), "att.npy",
       "\x93NUMPY"},
  };
}

INSTANTIATE_TEST_SUITE_P(Data, OutPaths, ::testing::ValuesIn(dataWriters()),
                         [](const auto& info) { return info.param.name; });

#ifdef ROPESCOPE_WITH_RENDER
std::vector<Writer> figureWriters() {
  const std::vector<std::string> decay = {"render", "--preset", "roformer-decay", "--size",
                                          "640x480"};
  const std::vector<std::string> scene = {"render", "--layout", "t2,img:castle.png,t2", "--size",
                                          "640x480"};
  auto view = [&](const std::string& v) {
    std::vector<std::string> a = scene;
    a.push_back("--view");
    a.push_back(v);
    return a;
  };
  return {
      {"decay_png", decay, "fig.png", "\x89PNG"},
      {"decay_svg", decay, "fig.svg", "<?xml"},
      {"decay_pdf", decay, "fig.pdf", "%PDF"},
      {"decay_csv", decay, "fig.csv", "distance"},
      {"decay_json", decay, "fig.json", "{"},
      {"ptd_png", view("ptd"), "ptd.png", "\x89PNG"},
      {"picture_svg", view("picture"), "picture.svg", "<?xml"},
      {"attention_pdf", view("attention"), "attention.pdf", "%PDF"},
      {"space_csv", view("space"), "space.csv", "index,"},
      {"gif",
       {"render", "--layout", "t4,i6x6,t8", "--animate", "distance_h:0:64", "--frames", "3",
        "--size", "160x120"},
       "anim.gif",
       "GIF89a"},
  };
}

INSTANTIATE_TEST_SUITE_P(Figures, OutPaths, ::testing::ValuesIn(figureWriters()),
                         [](const auto& info) { return info.param.name; });

// PNG frames: a folder is the one thing at the path that takes them.
class OutPathsFrames : public OutPaths {
 protected:
  void checkFrames(Kind kind);
};

void OutPathsFrames::checkFrames(Kind kind) {
  const Writer& w = GetParam();
  const std::string context = w.name + " --out <" + kindName(kind) + ">";
  SCOPED_TRACE(context);
  const fs::path dir = work_ / kindName(kind);
  fs::create_directories(dir);
  const fs::path out = dir / "frames";
  const fs::path target = dir / "target";
  switch (kind) {
    case Kind::None:
      break;
    case Kind::Regular600:
    case Kind::ReadOnly:
      std::ofstream(out) << kOld;
      ASSERT_EQ(::chmod(out.c_str(), kind == Kind::ReadOnly ? 0444 : 0600), 0);
      break;
    case Kind::Symlink:
      std::ofstream(target) << kOld;
      fs::create_symlink("target", out);
      break;
    case Kind::Dangling:
      fs::create_symlink("target", out);
      break;
    case Kind::Fifo:
      ASSERT_EQ(::mkfifo(out.c_str(), 0600), 0);
      break;
    case Kind::CharDevice:
      ASSERT_EQ(::mknod(out.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
      break;
    case Kind::Folder:
      fs::create_directories(out);
      std::ofstream(out / "keep") << kOld;
      break;
  }
  const ProcessResult r = run(out.string());
  if (kind == Kind::None || kind == Kind::Folder) {
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::is_directory(out));
    for (const char* f : {"frame_0001.png", "frame_0003.png"})
      EXPECT_EQ(slurp(out / f).compare(0, 4, "\x89PNG"), 0) << f;
    EXPECT_FALSE(fs::exists(out / "frame_0004.png"));
    if (kind == Kind::Folder) EXPECT_EQ(slurp(out / "keep"), kOld);
  } else {
    expectOneLineError(r, context, {out.string(), "folder"});
    const struct stat st = lstatOf(out);
    EXPECT_FALSE(S_ISDIR(st.st_mode)) << "made a folder";
    if (kind == Kind::Regular600 || kind == Kind::ReadOnly) EXPECT_EQ(slurp(out), kOld);
    if (kind == Kind::Symlink) EXPECT_EQ(slurp(target), kOld);
    if (kind == Kind::Symlink || kind == Kind::Dangling) EXPECT_TRUE(fs::is_symlink(out));
    if (kind == Kind::Dangling) EXPECT_FALSE(fs::exists(target));
    if (kind == Kind::Fifo) EXPECT_TRUE(S_ISFIFO(st.st_mode));
    if (kind == Kind::CharDevice) EXPECT_TRUE(S_ISCHR(st.st_mode));
  }
  EXPECT_EQ(temporaries(work_), 0u);
}

TEST_P(OutPathsFrames, OnlyAFolderTakesPngFrames) {
  for (Kind kind : kKinds)
    if (kind != Kind::CharDevice) checkFrames(kind);
  // A new name that says "one image" is not made a folder: the line points to .gif.
  for (const char* name : {"anim.png", "anim.PNG", "anim.jpg", "anim.pdf"}) {
    const fs::path out = work_ / name;
    const ProcessResult r = run(out.string());
    expectOneLineError(r, name, {out.string(), ".gif", "folder"});
    EXPECT_FALSE(fs::exists(fs::symlink_status(out))) << name << " was created";
  }
  EXPECT_EQ(temporaries(work_), 0u);
}

// A frame that cannot be written whole stops the animation with one line; the frame that was in
// the folder under that name is left as it was.
TEST_P(OutPathsFrames, AFailedFrameLeavesTheOldFrame) {
  const fs::path out = work_ / "full";
  fs::create_directories(out);
  std::ofstream(out / "frame_0001.png") << kOld;
  std::vector<std::string> a = GetParam().args;
  a.push_back("--out");
  a.push_back(out.string());
  const ProcessResult r = runWithFileSizeLimit(work_, a, 64);
  expectOneLineError(r, "frames (64-byte limit)", {"frame_0001.png", "File too large"});
  EXPECT_EQ(slurp(out / "frame_0001.png"), kOld);
  EXPECT_FALSE(fs::exists(out / "frame_0002.png"));
  EXPECT_EQ(temporaries(work_), 0u);
}

TEST_P(OutPathsFrames, CharacterDeviceIsNotAFolder) {
  if (!isRoot()) GTEST_SKIP() << kNeedsRoot;
  checkFrames(Kind::CharDevice);
}

INSTANTIATE_TEST_SUITE_P(Animation, OutPathsFrames,
                         ::testing::Values(Writer{
                             "frames",
                             {"render", "--layout", "t4,i6x6,t8", "--animate", "distance_h:0:64",
                              "--frames", "3", "--size", "160x120"},
                             "frames",
                             "\x89PNG"}),
                         [](const auto& info) { return info.param.name; });

// A 3-D view's PNG (drawn by VTK: needs X): the same rule, under xvfb-run.
class OutPathsCliX : public OutPaths {
 protected:
  void SetUp() override {
    OutPaths::SetUp();
    hideDisplay_ = false;
  }
};

TEST_P(OutPathsCliX, EveryKindOfPath) {
  if (std::getenv("DISPLAY") == nullptr || !*std::getenv("DISPLAY"))
    GTEST_SKIP() << "needs an X display (ctest runs it under xvfb-run)";
  for (Kind kind : kKinds) {
    if (kind == Kind::CharDevice && !isRoot()) {
      std::fprintf(stderr, "[ note ] %s\n", kNeedsRoot);  // the headless tests report it too
      continue;
    }
    SCOPED_TRACE(kindName(kind));
    check(kind);
  }
}

TEST_P(OutPathsCliX, AFailedWriteLeavesTheOldFile) {
  if (std::getenv("DISPLAY") == nullptr || !*std::getenv("DISPLAY"))
    GTEST_SKIP() << "needs an X display (ctest runs it under xvfb-run)";
  checkFailedWrite();
}

INSTANTIATE_TEST_SUITE_P(Space, OutPathsCliX,
                         ::testing::Values(Writer{"space_png",
                                                  {"render", "--layout", "t2,i3x3,t2", "--view",
                                                   "space", "--size", "480x360"},
                                                  "space.png",
                                                  "\x89PNG"}),
                         [](const auto& info) { return info.param.name; });
// What happened in one folder while a writer ran (inotify): the evidence that a file came into
// place by a rename of a temporary file, not by being written where it lies.
class FolderEvents {
 public:
  explicit FolderEvents(const fs::path& dir) {
    fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ >= 0) ::inotify_add_watch(fd_, dir.c_str(), IN_CREATE | IN_MOVED_TO | IN_MODIFY);
  }
  ~FolderEvents() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  // (mask, name) of every event so far.
  std::vector<std::pair<std::uint32_t, std::string>> take() {
    std::vector<std::pair<std::uint32_t, std::string>> events;
    alignas(inotify_event) char buf[65536];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        events.emplace_back(e->mask, e->len ? std::string(e->name) : std::string());
        at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      }
    }
    return events;
  }

 private:
  int fd_ = -1;
};

// `name` arrived by rename from "<name>.tmp-…" and was never created or written in place.
void expectRenamedIntoPlace(FolderEvents& events, const std::string& name,
                            const std::string& context) {
  bool temporary = false, moved = false, inPlace = false;
  for (const auto& [mask, file] : events.take()) {
    if ((mask & IN_CREATE) && file.rfind(name + ".tmp-", 0) == 0) temporary = true;
    if ((mask & IN_MOVED_TO) && file == name) moved = true;
    if ((mask & (IN_CREATE | IN_MODIFY)) && file == name) inPlace = true;
  }
  EXPECT_TRUE(temporary) << context << ": no temporary file " << name << ".tmp-…";
  EXPECT_TRUE(moved) << context << ": " << name << " was not renamed into place";
  EXPECT_FALSE(inPlace) << context << ": " << name << " was written in place";
}

struct ListedView {
  std::string name;
  std::vector<std::string> formats;
  bool needsX = false;
};

// The views and formats `render --list-views` offers ("NAME  description [png csv] (needs X)"),
// so a view added later is checked without editing this test.
std::vector<ListedView> listedViews() {
  const fs::path work = makeWorkDir("ropescope-outpaths-list");
  const ProcessResult r = runProcess(work, work, {"render", "--list-views"}, true);
  fs::remove_all(work);
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<ListedView> views;
  std::stringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const std::size_t open = line.rfind('['), close = line.rfind(']');
    if (line.empty() || open == std::string::npos || close < open) continue;
    ListedView v;
    v.name = line.substr(0, line.find(' '));
    std::stringstream formats(line.substr(open + 1, close - open - 1));
    for (std::string f; formats >> f;) v.formats.push_back(f);
    v.needsX = line.find("(needs X)", close) != std::string::npos;
    views.push_back(v);
  }
  EXPECT_GE(views.size(), 10u) << r.out;
  return views;
}

// Every view in every format it offers is written by the one output path: a temporary file
// renamed into place (regular files), not Qt's own writer.
void checkEveryView(bool withX) {
  const fs::path work = makeWorkDir(std::string("ropescope-outpaths-views") + (withX ? "-x" : ""));
  fs::copy_file(fs::path(ROPESCOPE_SAMPLES) / "castle.png", work / "castle.png");
  int checked = 0;
  for (const ListedView& v : listedViews()) {
    if (v.needsX != withX) continue;
    for (const std::string& format : v.formats) {
      const std::string name = v.name + "." + format;
      const std::string context = "render --view " + v.name + " --out " + name;
      const fs::path dir = work / (v.name + "-" + format);
      fs::create_directories(dir);
      FolderEvents events(dir);
      ASSERT_TRUE(events.ok()) << "inotify: " << std::strerror(errno);
      const ProcessResult r =
          runProcess(work, work,
                     {"render", "--layout", "t2,img:castle.png,t2,a4", "--view", v.name, "--size",
                      "480x360", "--out", (dir / name).string()},
                     !withX);
      ASSERT_EQ(r.status, 0) << context << "\n" << r.err;
      EXPECT_GT(fs::file_size(dir / name), 0u) << context;
      expectRenamedIntoPlace(events, name, context);
      ++checked;
    }
  }
  fs::remove_all(work);
  std::printf("[ views ] %d view/format pairs renamed into place\n", checked);
  std::fflush(stdout);
  EXPECT_GT(checked, 0);
}

TEST(OutPathsViews, EveryViewAndFormatIsRenamedIntoPlace) {
  checkEveryView(false);
}

TEST(OutPathsViewsX, Every3dViewAndFormatIsRenamedIntoPlace) {
  if (std::getenv("DISPLAY") == nullptr || !*std::getenv("DISPLAY"))
    GTEST_SKIP() << "needs an X display (ctest runs it under xvfb-run)";
  checkEveryView(true);
}

// An animation's GIF and each of its PNG frames: the same.
TEST(OutPathsViews, GifAndEveryPngFrameAreRenamedIntoPlace) {
  const fs::path work = makeWorkDir("ropescope-outpaths-anim");
  const std::vector<std::string> anim = {"render",          "--layout", "t4,i6x6,t8", "--animate",
                                         "distance_h:0:64", "--frames", "3",          "--size",
                                         "160x120",         "--out"};
  {
    FolderEvents events(work);
    ASSERT_TRUE(events.ok());
    std::vector<std::string> a = anim;
    a.push_back((work / "a.gif").string());
    const ProcessResult r = runProcess(work, work, a, true);
    ASSERT_EQ(r.status, 0) << r.err;
    expectRenamedIntoPlace(events, "a.gif", "--animate --out a.gif");
  }
  fs::create_directories(work / "frames");
  FolderEvents events(work / "frames");
  ASSERT_TRUE(events.ok());
  std::vector<std::string> a = anim;
  a.push_back((work / "frames").string());
  const ProcessResult r = runProcess(work, work, a, true);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto all = events.take();
  for (const char* frame : {"frame_0001.png", "frame_0002.png", "frame_0003.png"}) {
    bool moved = false, inPlace = false;
    for (const auto& [mask, file] : all) {
      moved |= (mask & IN_MOVED_TO) && file == frame;
      inPlace |= (mask & (IN_CREATE | IN_MODIFY)) && file == frame;
    }
    EXPECT_TRUE(moved) << frame << " was not renamed into place";
    EXPECT_FALSE(inPlace) << frame << " was written in place";
  }
  fs::remove_all(work);
}
#endif

}  // namespace
