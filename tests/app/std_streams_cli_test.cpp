// The standard output as the user hands it over: `--out /dev/stdout` (and /dev/fd/N) writes
// into the stream as it is open, a pipe or a file opened to append (a hunt found the pipe
// refused and the appended log replaced), and a standard output that cannot be written (a full
// disk, a closed stream) is an error in one line with status 2, not a silent success.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "cli_harness.h"

using namespace ropescope::cli_harness;

namespace {

struct Streams {
  int status = -1;
  std::string err;
};

// Runs ropescope with `out` as its standard output (-1: closed) and stderr captured.
Streams runWithStdout(const fs::path& work, int out, const std::vector<std::string>& args) {
  const fs::path errFile = work / "stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    if (out >= 0) {
      if (::dup2(out, 1) < 0) _exit(127);
    } else {
      ::close(1);
    }
    if (!std::freopen(errFile.c_str(), "wb", stderr)) _exit(127);
    execRopescope(args, true);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), slurp(errFile)};
}

// Runs ropescope with a pipe as its standard output; *got receives what came down the pipe.
Streams runIntoPipe(const fs::path& work, const std::vector<std::string>& args, std::string* got) {
  int pipeFds[2];
  if (::pipe(pipeFds) != 0) return {};
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) > 0;)
      got->append(buf, std::size_t(n));
  });
  const Streams s = runWithStdout(work, pipeFds[1], args);
  ::close(pipeFds[1]);
  reader.join();
  ::close(pipeFds[0]);
  return s;
}

const std::vector<std::string> kDecay = {"decay", "--max-distance", "3", "--format", "csv"};

std::string decayCsv(const fs::path& work) {
  const ProcessResult r = runProcess(work, work, kDecay);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

}  // namespace

TEST(StdStreams, OutDevStdoutFeedsAPipe) {
  const fs::path work = makeWorkDir("rs-streams-pipe");
  std::vector<std::string> args = kDecay;
  args.insert(args.end(), {"--out", "/dev/stdout"});
  std::string got;
  const Streams s = runIntoPipe(work, args, &got);
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(got, decayCsv(work));
  fs::remove_all(work);
}

// attention writes rows (.npy) to --out and a JSON summary to the standard output: with
// --out /dev/stdout the summary followed the .npy in the pipe. The pipe holds the .npy alone
// (its size is what its header says), and the summary is on the standard error.
TEST(StdStreams, AttentionRowsOnStdoutLeaveTheSummaryToStderr) {
  const fs::path work = makeWorkDir("rs-streams-attention");
  std::string got;
  const Streams s = runIntoPipe(work,
                                {"attention", "--layout", "t5,i3x3,t2", "--backend", "cpu",
                                 "--rows", "0:4", "--out", "/dev/stdout"},
                                &got);
  EXPECT_EQ(s.status, 0) << s.err;
  // NPY v1: magic (6), version (2), header length (2, little-endian), header, then the data.
  ASSERT_GT(got.size(), 10u);
  EXPECT_EQ(got.compare(0, 6, "\x93NUMPY"), 0);
  const std::size_t header = 10 + std::size_t(static_cast<unsigned char>(got[8])) +
                             256 * std::size_t(static_cast<unsigned char>(got[9]));
  EXPECT_NE(got.find("(1, 4, 16)"), std::string::npos) << got.substr(0, header);
  EXPECT_EQ(got.size(), header + 1 * 4 * 16 * sizeof(float));
  EXPECT_NE(s.err.find("\"backend\""), std::string::npos) << s.err;
  fs::remove_all(work);
}

TEST(StdStreams, OutDevStdoutAppendsToTheFileItIsOpenOn) {
  const fs::path work = makeWorkDir("rs-streams-append");
  const fs::path log = work / "log.txt";
  { std::ofstream(log) << "line1\n"; }
  ::chmod(log.c_str(), 0640);
  struct stat before {};
  ASSERT_EQ(::stat(log.c_str(), &before), 0);
  for (const char* path : {"/dev/stdout", "/proc/self/fd/1"}) {
    SCOPED_TRACE(path);
    const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
    ASSERT_GE(fd, 0);
    std::vector<std::string> args = kDecay;
    args.insert(args.end(), {"--out", path});
    const Streams s = runWithStdout(work, fd, args);
    ::close(fd);
    EXPECT_EQ(s.status, 0) << s.err;
  }
  struct stat after {};
  ASSERT_EQ(::stat(log.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // the same file, not one renamed over it
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  const std::string csv = decayCsv(work);
  EXPECT_EQ(slurp(log), "line1\n" + csv + csv);
  fs::remove_all(work);
}

TEST(StdStreams, ADescriptorNotOpenForWritingIsRefused) {
  const fs::path work = makeWorkDir("rs-streams-fd");  // stdin is /dev/null, opened to read
  for (const char* path : {"/dev/fd/0", "/dev/fd/97"}) {
    SCOPED_TRACE(path);
    std::vector<std::string> args = kDecay;
    args.insert(args.end(), {"--out", path});
    const ProcessResult r = runProcess(work, work, args);
    expectOneLineError(r, path,
                       {path, path == std::string("/dev/fd/0") ? "reading only" : "not open"});
  }
  fs::remove_all(work);
}

TEST(StdStreams, AStandardOutputThatCannotBeWrittenIsAnError) {
  const fs::path work = makeWorkDir("rs-streams-full");
  const int full = ::open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  for (const std::vector<std::string>& args :
       {kDecay, std::vector<std::string>{"ids", "--layout", "t10000"},
        std::vector<std::string>{"--help"}}) {
    SCOPED_TRACE(joinArgs(args));
    for (int out : {full, -1}) {
      const Streams s = runWithStdout(work, out, args);
      EXPECT_EQ(s.status, 2);
      EXPECT_EQ(s.err.find('\n'), s.err.size() - 1) << s.err;
      EXPECT_NE(s.err.find("cannot write the standard output"), std::string::npos) << s.err;
    }
  }
  ::close(full);
  fs::remove_all(work);
}
