// Atomic saving: a process killed at random moments while it saves leaves the previous file
// intact (the old scene or the new one, byte for byte, never a mix), stale temporary files are
// cleaned by the next save, and failed writes keep the old file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "atomic_save_scenes.h"
#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"
#include "ropescope/npy.h"
#include "ropescope/scene.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using namespace ropescope;

namespace {

using ropescope::test::readAll;
using ropescope::test::TempDir;

std::size_t temporaries(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

unsigned seedFromEnv() {
  const char* s = std::getenv("ROPESCOPE_KILL_SEED");
  return s ? unsigned(std::strtoul(s, nullptr, 10)) : std::random_device{}();
}

TEST(AtomicSave, KilledMidSaveLeavesOldOrNewFileIntact) {
  TempDir dir;
  const fs::path file = dir.path / "scene.json";
  const Scene a = test::bigScene(0), b = test::bigScene(1);
  ASSERT_FALSE(a == b);
  const std::string textA = sceneToJson(a, dir.path.string()),
                    textB = sceneToJson(b, dir.path.string());
  saveSceneFile(a, file.string());
  ASSERT_EQ(readAll(file), textA);
  // Each text loads as its scene, so a file that holds one of them byte for byte holds that scene.
  ASSERT_TRUE(loadSceneFile(file.string()) == a);
  saveSceneFile(b, file.string());
  ASSERT_TRUE(loadSceneFile(file.string()) == b);
  saveSceneFile(a, file.string());

  const unsigned seed = seedFromEnv();
  std::printf("[ seed ] ROPESCOPE_KILL_SEED=%u\n", seed);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delayUs(0, 60000);
  const int kills = 30;
  int sawA = 0, sawB = 0, midWrite = 0;
  for (int k = 0; k < kills; ++k) {
    int out[2];
    ASSERT_EQ(::pipe(out), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      ::execl(ROPESCOPE_ATOMIC_CHILD, ROPESCOPE_ATOMIC_CHILD, file.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    char ready[6] = {};
    ASSERT_EQ(::read(out[0], ready, 6), 6) << "the child did not start saving";
    ::close(out[0]);
    if (k % 2 == 0) {
      // At a random moment.
      std::this_thread::sleep_for(std::chrono::microseconds(delayUs(rng)));
    } else {
      // Aimed: as soon as a temporary file shows the child is between writing and renaming
      // (random delays alone can miss that window on a loaded machine).
      const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (temporaries(dir.path) == 0 && std::chrono::steady_clock::now() < giveUp) {
      }
    }
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the child ended on its own (status " << status << ")";

    const std::string text = readAll(file);
    ASSERT_TRUE(text == textA || text == textB)
        << "kill " << k << ": the file is neither scene (" << text.size() << " bytes)";
    (text == textA ? sawA : sawB)++;
    midWrite += temporaries(dir.path) > 0;
  }
  std::printf(
      "[ kills ] %d kills: file held scene A %d times, B %d times; %d kills left a "
      "half-written temporary file\n",
      kills, sawA, sawB, midWrite);
  // Kills did land in the middle of writes (a temporary file was left), and the renames went
  // through between them (both scenes were seen).
  EXPECT_GT(midWrite, 0);
  EXPECT_GT(sawB, 0);
  // The next save removes what killed writers left and replaces the file.
  saveSceneFile(b, file.string());
  EXPECT_EQ(temporaries(dir.path), 0u);
  EXPECT_EQ(readAll(file), textB);
}

TEST(AtomicSave, FailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  TempDir dir;
  const fs::path file = dir.path / "keep.txt";
  writeFileAtomically(file.string(), std::string("old"));
  // A folder where the file should go: the rename fails after the data was written.
  const fs::path blocked = dir.path / "blocked";
  fs::create_directories(blocked / "inside");
  try {
    writeFileAtomically(blocked.string(), std::string("new"));
    ADD_FAILURE() << "replacing a folder should fail";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(blocked.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(temporaries(dir.path), 0u);
  // No such folder: one line naming the path.
  const fs::path missing = dir.path / "no" / "such" / "file.txt";
  try {
    writeFileAtomically(missing.string(), std::string("x"));
    ADD_FAILURE() << "writing into a missing folder should fail";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  EXPECT_EQ(readAll(file), "old");
}

TEST(AtomicSave, WrittenFilesGetTheUsualPermissions) {
  TempDir dir;
  const fs::path file = dir.path / "perm.json";
  writeFileAtomically(file.string(), std::string("{}"));
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  // Not mkstemp's 0600: what the umask leaves of 0666 (output_kinds_test tries other umasks).
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~processUmask());
}

TEST(AtomicSave, OnlyTemporariesOfDeadWritersAreRemoved) {
  TempDir dir;
  const fs::path file = dir.path / "s.json";
  // A writer that ran and ended: its pid no longer exists once reaped.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  ::waitpid(dead, nullptr, 0);
  const fs::path stale = dir.path / ("s.json.tmp-" + std::to_string(dead) + "-abcdef");
  const fs::path live = dir.path / ("s.json.tmp-" + std::to_string(::getppid()) + "-abcdef");
  const fs::path other = dir.path / ("t.json.tmp-" + std::to_string(dead) + "-abcdef");
  for (const fs::path& p : {stale, live, other}) std::ofstream(p) << "partial";
  EXPECT_EQ(removeStaleTemporaries(file.string()), 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));   // a save in progress in a running process
  EXPECT_TRUE(fs::exists(other));  // another file's
}

TEST(AtomicSave, NpyOutputIsWrittenWhole) {
  TempDir dir;
  const fs::path file = dir.path / "x.npy";
  const std::vector<float> v = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, 8.0f};
  writeNpy(file.string(), v.data(), v.size(), {2, 3});
  const std::string bytes = readAll(file);
  ASSERT_GE(bytes.size(), v.size() * sizeof(float));
  // The data block is the last 24 bytes, after a 64-byte aligned header.
  EXPECT_EQ(bytes.size() % 64, v.size() * sizeof(float) % 64);
  EXPECT_EQ(0, std::memcmp(bytes.data() + bytes.size() - 24, v.data(), 24));
  EXPECT_EQ(temporaries(dir.path), 0u);
}

}  // namespace
