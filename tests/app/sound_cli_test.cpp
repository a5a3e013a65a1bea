// aud: layout items through the CLI: `ropescope ids --layout t3,aud:clip.wav,t2`
// lists the clip's audio tokens as a 1-D run between the text runs, the shipped chirp.wav works
// from any folder, and a bad sound exits 2 with one line naming the file.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_harness.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-sound-cli");
  return dir;
}

ProcessResult runCli(const std::vector<std::string>& args) {
  return runProcess(workDir(), workDir(), args);
}

// A PCM 16-bit mono WAV of `frames` silent frames at `rate`, written byte by byte.
void writeWav(const fs::path& p, std::uint32_t rate, std::uint32_t frames) {
  std::string h;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) h += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  auto u16 = [&](std::uint16_t v) {
    h += static_cast<char>(v & 0xff);
    h += static_cast<char>(v >> 8);
  };
  const std::uint32_t bytes = frames * 2;
  h += "RIFF";
  u32(36 + bytes);
  h += "WAVEfmt ";
  u32(16);
  u16(1);
  u16(1);
  u32(rate);
  u32(rate * 2);
  u16(2);
  u16(16);
  h += "data";
  u32(bytes);
  std::ofstream(p, std::ios::binary) << h << std::string(bytes, '\0');
}

}  // namespace

// 1 s at 44.1 kHz: 16000 samples at 16 kHz, 100 mel frames, (99 // 2 + 1 = 50; 48 // 2 + 1) = 25
// Qwen2.5-Omni tokens; mrope gives them t = h = w continuing the text: 3..27, then text 28, 29.
TEST(SoundCli, IdsListTheClipsAudioTokensBetweenTheTextRuns) {
  writeWav(workDir() / "clip.wav", 44100, 44100);
  const ProcessResult r = runCli({"ids", "--layout", "t3,aud:clip.wav,t2", "--design", "mrope"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const json& tokens = j.at("tokens");
  ASSERT_EQ(tokens.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    const json& t = tokens[static_cast<std::size_t>(i)];
    const bool audio = i >= 3 && i < 28;
    EXPECT_EQ(t.at("modality"), audio ? "audio" : "text") << i;
    EXPECT_EQ(t.at("segment"), i < 3 ? 0 : audio ? 1 : 2) << i;
    EXPECT_EQ(t.at("id"), json::array({i, i, i})) << i;
  }
}

TEST(SoundCli, TheShippedChirpWorksFromAnyFolder) {
  // chirp.wav: 3 s at 16 kHz, 300 frames -> 150 -> 75 tokens.
  const ProcessResult r = runCli({"ids", "--layout", "t1,aud:chirp.wav", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::size_t audio = 0;
  for (std::size_t p = r.out.find(",audio"); p != std::string::npos;
       p = r.out.find(",audio", p + 1))
    ++audio;
  EXPECT_EQ(audio, 75u) << r.out.substr(0, 400);
}

TEST(SoundCli, AnOmniDesignCountsTheClipWithItsOwnRule) {
  // Qwen3-Omni's processor keeps floor(48000 / 160) = 300 mel frames of chirp.wav; its windowed
  // rule with Python's floor division: leave = 300 % 100 = 0, feat = (0 - 1) // 2 + 1 = 0,
  // ((0 - 1) // 2 + 1 - 1) // 2 + 1 = 0, plus 3 windows x 13 = 39 tokens. Other designs count as
  // Qwen2.5-Omni (75). The design is given after the layout.
  auto count = [](const ProcessResult& r) {
    std::size_t n = 0;
    for (std::size_t p = r.out.find(",audio"); p != std::string::npos;
         p = r.out.find(",audio", p + 1))
      ++n;
    return n;
  };
  const ProcessResult q3 =
      runCli({"ids", "--layout", "t1,aud:chirp.wav", "--format", "csv", "--design", "qwen3-omni"});
  ASSERT_EQ(q3.status, 0) << q3.err;
  EXPECT_EQ(count(q3), 39u);
  const ProcessResult hard =
      runCli({"ids", "--layout", "t1,aud:chirp.wav", "--format", "csv", "--design", "hard"});
  ASSERT_EQ(hard.status, 0) << hard.err;
  EXPECT_EQ(count(hard), 75u);
}

TEST(SoundCli, BadSoundsExitTwoWithOneLine) {
  std::ofstream(workDir() / "noise.wav", std::ios::binary) << std::string(3000, 'z');
  writeWav(workDir() / "blip.wav", 16000, 100);  // 6.25 ms: no token
  expectOneLineError(runCli({"ids", "--layout", "t1,aud:noise.wav"}), "garbage",
                     {"noise.wav", "not a sound file"});
  expectOneLineError(runCli({"ids", "--layout", "t1,aud:missing.flac"}), "missing",
                     {"missing.flac", "not found"});
  expectOneLineError(runCli({"ids", "--layout", "t1,aud:blip.wav"}), "short",
                     {"blip.wav", "too short"});
  expectOneLineError(runCli({"ids", "--layout", "t1,aud:"}), "empty", {"aud:"});
  // A damaged MP3: libsndfile's decoder prints "Note: Illegal Audio-MPEG-Header" lines of its
  // own while it probes; only ropescope's line reaches stderr, and it does not claim the file
  // is missing (libsndfile's stale text for a failed probe).
  std::string frame = "\xff\xfb\x90\x64";
  for (int i = 0; i < 2000; ++i) frame += static_cast<char>((i * 37 + 11) & 0xff);
  std::ofstream(workDir() / "broken.mp3", std::ios::binary) << frame;
  const ProcessResult mp3 = runCli({"ids", "--layout", "t1,aud:broken.mp3"});
  expectOneLineError(mp3, "mp3", {"broken.mp3", "not a sound file libsndfile can read"});
  EXPECT_EQ(mp3.err.find("Note:"), std::string::npos) << mp3.err;
  EXPECT_EQ(mp3.err.find("does not exist"), std::string::npos) << mp3.err;
}
