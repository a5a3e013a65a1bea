// `ropescope render --animate SPEC --frames N` end to end: a distance sweep needs no display and
// writes a GIF with N frames of the requested size (checked by walking the GIF89a blocks here,
// independently of the writer) or N PNG files; bad specs and frame counts give one line and
// exit status 2.
#include <gtest/gtest.h>

#include <cstdint>

#include "cli_harness.h"

using namespace ropescope::cli_harness;

namespace {

struct GifInfo {
  bool valid = false;
  std::string problem;
  int width = 0, height = 0;
  int frames = 0;
  bool loops = false;
  std::vector<int> delays;  // hundredths of a second, per graphic control extension
};

int u16(const std::string& b, std::size_t at) {
  return static_cast<unsigned char>(b[at]) | static_cast<unsigned char>(b[at + 1]) << 8;
}

// Walks the blocks of a GIF89a file: header, screen descriptor, optional global table, then
// extensions (0x21), images (0x2C) with their tables and LZW sub-blocks, up to the trailer.
GifInfo walkGif(const std::string& b) {
  GifInfo g;
  auto fail = [&](const std::string& why) {
    g.problem = why;
    return g;
  };
  if (b.size() < 13 || b.compare(0, 6, "GIF89a") != 0) return fail("no GIF89a header");
  g.width = u16(b, 6);
  g.height = u16(b, 8);
  const int packed = static_cast<unsigned char>(b[10]);
  std::size_t at = 13;
  if (packed & 0x80) at += 3u * (1u << ((packed & 7) + 1));
  auto skipSubBlocks = [&]() {
    while (at < b.size()) {
      const std::size_t n = static_cast<unsigned char>(b[at++]);
      if (n == 0) return true;
      at += n;
    }
    return false;
  };
  while (at < b.size()) {
    const int tag = static_cast<unsigned char>(b[at++]);
    if (tag == 0x3B) {
      g.valid = at == b.size();
      if (!g.valid) g.problem = "bytes after the trailer";
      return g;
    }
    if (tag == 0x21) {
      if (at >= b.size()) return fail("truncated extension");
      const int label = static_cast<unsigned char>(b[at++]);
      if (label == 0xFF && at + 12 <= b.size() && b.compare(at + 1, 11, "NETSCAPE2.0") == 0)
        g.loops = true;
      if (label == 0xF9 && at + 5 <= b.size()) g.delays.push_back(u16(b, at + 2));
      if (!skipSubBlocks()) return fail("truncated extension data");
    } else if (tag == 0x2C) {
      if (at + 9 > b.size()) return fail("truncated image descriptor");
      if (u16(b, at + 4) != g.width || u16(b, at + 6) != g.height)
        return fail("frame size differs from the screen");
      const int p = static_cast<unsigned char>(b[at + 8]);
      at += 9;
      if (p & 0x80) at += 3u * (1u << ((p & 7) + 1));
      if (at >= b.size()) return fail("truncated colour table");
      const int minCode = static_cast<unsigned char>(b[at++]);
      if (minCode < 2 || minCode > 8) return fail("bad LZW code size");
      if (!skipSubBlocks()) return fail("truncated image data");
      ++g.frames;
    } else {
      return fail("unknown block " + std::to_string(tag));
    }
  }
  return fail("no trailer");
}

// Width and height from a PNG's IHDR chunk.
std::pair<int, int> pngSize(const std::string& b) {
  if (b.size() < 24 || b.compare(1, 3, "PNG") != 0) return {-1, -1};
  auto u32 = [&](std::size_t at) {
    return static_cast<int>(
        static_cast<unsigned char>(b[at]) << 24 | static_cast<unsigned char>(b[at + 1]) << 16 |
        static_cast<unsigned char>(b[at + 2]) << 8 | static_cast<unsigned char>(b[at + 3]));
  };
  return {u32(16), u32(20)};
}

class AnimateCli : public ::testing::Test {
 protected:
  void SetUp() override { work_ = makeWorkDir("ropescope-animate"); }
  void TearDown() override { fs::remove_all(work_); }
  ProcessResult run(const std::vector<std::string>& args) {
    return runProcess(work_, work_, args, /*hideDisplay=*/true);
  }
  fs::path work_;
};

}  // namespace

TEST_F(AnimateCli, DistanceSweepWritesAGifWithoutADisplay) {
  const ProcessResult r =
      run({"render", "--layout", "t4,i6x6,t8", "--design", "mrope", "--animate", "distance_h:0:120",
           "--frames", "9", "--size", "320x240", "--out", "decay.gif"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote 9 frames of 320x240"), std::string::npos) << r.out;
  const GifInfo g = walkGif(slurp(work_ / "decay.gif"));
  ASSERT_TRUE(g.valid) << g.problem;
  EXPECT_EQ(g.width, 320);
  EXPECT_EQ(g.height, 240);
  EXPECT_EQ(g.frames, 9);
  EXPECT_TRUE(g.loops);
  ASSERT_EQ(g.delays.size(), 9u);
  EXPECT_GT(g.delays[0], 0);
}

TEST_F(AnimateCli, PngFolderHasOneFilePerFrame) {
  const ProcessResult r = run({"render", "--layout", "t4,i6x6,t8", "--animate", "distance_thw:0:8",
                               "--frames", "4", "--size", "200x150", "--out", "frames"});
  ASSERT_EQ(r.status, 0) << r.err;
  int files = 0;
  for (const auto& e : fs::directory_iterator(work_ / "frames")) {
    ++files;
    EXPECT_EQ(pngSize(slurp(e.path())), (std::pair<int, int>{200, 150})) << e.path();
  }
  EXPECT_EQ(files, 4);
  EXPECT_TRUE(fs::exists(work_ / "frames" / "frame_0001.png"));
  EXPECT_TRUE(fs::exists(work_ / "frames" / "frame_0004.png"));
}

TEST_F(AnimateCli, BadSpecsAndFrameCountsGiveOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--animate", "speed:0:1"}, {"speed", "PARAM:FROM:TO"}},
      {{"--animate", "alpha:0:3"}, {"alpha", "[0, 1]"}},
      {{"--animate", "distance:0"}, {"PARAM:FROM:TO"}},
      // A frame is a phasor figure: the distances render --view phasor --distance draws.
      {{"--animate", "distance_h:-5:10"}, {"distance", "0..4096", "-5"}},
      {{"--animate", "distance:0:64", "--frames", "1"}, {"frames", "2..1000"}},
      {{"--animate", "distance:0:64", "--frames", "x"}, {"frames"}},
  };
  for (const auto& [extra, mentions] : cases) {
    std::vector<std::string> args = {"render", "--layout", "t4,i6x6,t8", "--out", "bad.gif"};
    args.insert(args.end(), extra.begin(), extra.end());
    expectOneLineError(run(args), joinArgs(args), mentions);
    EXPECT_FALSE(fs::exists(work_ / "bad.gif")) << joinArgs(args);
  }
}
