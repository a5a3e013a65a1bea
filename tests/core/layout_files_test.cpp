// Layout segments from picture files: the img:/vid: spec forms, frame pairing, paths relative
// to a base folder and to the scene file, the image grid settings in the scene, and files that
// are bad or disappear. Pictures are written here byte by byte (headers only matter) or are
// the project's samples in resources/samples.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/layout_files.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"

using namespace ropescope;
namespace fs = std::filesystem;

namespace {

using Bytes = std::string;

void be32(Bytes& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b += static_cast<char>(v >> s & 255);
}
void le16(Bytes& b, std::uint32_t v) {
  b += static_cast<char>(v & 255);
  b += static_cast<char>(v >> 8 & 255);
}

Bytes chunk(const char* type, const Bytes& data) {
  Bytes b;
  be32(b, static_cast<std::uint32_t>(data.size()));
  return b + type + data + Bytes(4, '\0');
}

Bytes png(std::uint32_t w, std::uint32_t h) {
  Bytes ihdr;
  be32(ihdr, w);
  be32(ihdr, h);
  ihdr += Bytes("\x08\x02\0\0\0", 5);
  return Bytes("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", "xx") +
         chunk("IEND", "");
}

Bytes gif(std::uint32_t w, std::uint32_t h, int frames, std::uint32_t delayCs) {
  Bytes b("GIF89a", 6);
  le16(b, w);
  le16(b, h);
  b += Bytes("\0\0\0", 3);  // no global colour table
  for (int i = 0; i < frames; ++i) {
    b += Bytes("\x21\xf9\x04\x00", 4);
    le16(b, delayCs);
    b += Bytes("\0\0", 2);
    b += ',';
    le16(b, 0);
    le16(b, 0);
    le16(b, w);
    le16(b, h);
    b += Bytes("\0\x02\x01\x44\0", 5);
  }
  return b + ';';
}

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ropescope-layout-files-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& rel, const Bytes& bytes) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  LayoutFileContext ctx(ImageGridSettings grid = {}) const { return {dir_.string(), grid}; }

  // The InputError text of parsing `spec` from the test folder ("" when accepted).
  std::string refusal(const std::string& spec) {
    try {
      parseLayoutSpec(spec, ctx());
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      return e.what();
    }
    return {};
  }

  fs::path dir_;
};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

fs::path samples() {
  // From CMake, not __FILE__: ccache's base_dir makes __FILE__ relative to the build folder.
  return ROPESCOPE_SAMPLES_DIR;
}

}  // namespace

// Grids below are Python smart_resize values (factor 28, min 3136, max 12845056):
// 640x480 -> round(480/28)=17 (17.14), round(640/28)=23 (22.86): 17 x 23.
TEST_F(Files, ImageItemTakesItsGridFromTheFile) {
  write("photo.png", png(640, 480));
  const Layout l = parseLayoutSpec("t5,img:photo.png,t3", ctx());
  ASSERT_EQ(l.segments.size(), 3u);
  const Segment& s = l.segments[1];
  EXPECT_EQ(s.kind, SegmentKind::Image);
  EXPECT_EQ(s.rows, 17);
  EXPECT_EQ(s.cols, 23);
  EXPECT_EQ(s.frames, 1);
  EXPECT_EQ(s.source.kind, SourceKind::Image);
  EXPECT_EQ(s.source.width, 640);
  EXPECT_EQ(s.source.height, 480);
  EXPECT_EQ(s.source.resizedWidth, 644);
  EXPECT_EQ(s.source.resizedHeight, 476);
  EXPECT_TRUE(fs::path(s.source.path).is_absolute());
  EXPECT_EQ(l.tokenCount(), 5u + 17 * 23 + 3);
  // Qwen3-VL: factor 32, min 65536: 480/32 = 15, 640/32 = 20.
  const Layout q3 = parseLayoutSpec("img:photo.png", ctx(imageGridPreset("qwen3-vl")));
  EXPECT_EQ(q3.segments[0].rows, 15);
  EXPECT_EQ(q3.segments[0].cols, 20);
}

TEST_F(Files, SpecWithFilesRoundTripsRelativeToTheBase) {
  write("pics/a b.png", png(100, 100));
  write("clip/f1.png", png(56, 56));
  write("clip/f2.png", png(56, 56));
  write("anim.gif", gif(56, 84, 3, 10));
  const std::string spec =
      "t2,img:pics/a b.png,t1,vid:clip/,vid:clip/f2.png+clip/f1.png,vid:anim.gif";
  const Layout l = parseLayoutSpec(spec, ctx());
  EXPECT_EQ(formatLayoutSpec(l, dir_.string()), spec);
  EXPECT_EQ(parseLayoutSpec(formatLayoutSpec(l, dir_.string()), ctx()), l);
  // Without a base the paths are absolute and parse back from anywhere.
  const std::string absolute = formatLayoutSpec(l);
  EXPECT_TRUE(contains(absolute, "img:" + (dir_ / "pics/a b.png").string())) << absolute;
  EXPECT_EQ(parseLayoutSpec(absolute), l);
  // Plain grids are untouched by the new forms.
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("t5,i3x3,t2,v2x2x2", ctx())), "t5,i3x3,t2,v2x2x2");
}

TEST_F(Files, VideoFramesPairUpAndAnOddCountRepeatsTheLast) {
  for (int n = 1; n <= 7; ++n) {
    std::string list;
    for (int i = 0; i < n; ++i) {
      const std::string name = "v" + std::to_string(n) + "/f" + std::to_string(i) + ".png";
      write(name, png(112, 84));  // 4 x 3 tokens
      list += (i ? "+" : "") + name;
    }
    const Segment s = parseLayoutSpec("vid:" + list, ctx()).segments[0];
    EXPECT_EQ(s.kind, SegmentKind::Video);
    EXPECT_EQ(s.frames, (n + 1) / 2) << n << " frames";
    EXPECT_EQ(s.source.frameCount, n);
    EXPECT_EQ(s.rows, 3);
    EXPECT_EQ(s.cols, 4);
    const Segment folder = parseLayoutSpec("vid:v" + std::to_string(n), ctx()).segments[0];
    EXPECT_EQ(folder.source.kind, SourceKind::Folder);
    EXPECT_EQ(folder.frames, (n + 1) / 2);
  }
}

TEST_F(Files, FolderFramesComeInNaturalOrderAndSkipOtherFiles) {
  for (const char* name : {"frame10.png", "frame2.png", "frame1.png", "frame9.jpg.png"})
    write(std::string("clip/") + name, png(56, 56));
  write("clip/notes.txt", "not a frame");
  write("clip/.hidden.png", "");
  fs::create_directories(dir_ / "clip" / "sub.png");
  const std::vector<std::string> frames = listFrameFiles((dir_ / "clip").string());
  std::vector<std::string> names;
  for (const auto& f : frames) names.push_back(fs::path(f).filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"frame1.png", "frame2.png", "frame9.jpg.png",
                                             "frame10.png"}));
  EXPECT_TRUE(contains(refusal("vid:empty/"), "folder not found"));
  fs::create_directories(dir_ / "nothing");
  write("nothing/readme.txt", "hi");
  EXPECT_TRUE(contains(refusal("vid:nothing/"), "no picture files"));
}

TEST_F(Files, FramesOfDifferentSizesNameTheFirstThatDiffers) {
  write("a.png", png(112, 112));
  write("b.png", png(112, 112));
  const std::string c = write("c.png", png(112, 140));
  write("d.png", png(56, 56));
  const std::string m = refusal("t1,vid:a.png+b.png+c.png+d.png");
  EXPECT_TRUE(contains(m, c)) << m;
  EXPECT_TRUE(contains(m, "frame 3")) << m;
  EXPECT_TRUE(contains(m, "112x140")) << m;
  // The problem names c.png; d.png appears only in the item as written.
  EXPECT_FALSE(contains(m.substr(m.find("\": ")), "d.png")) << m;
}

TEST_F(Files, AnimatedGifIsAVideoWhoseRateCanFeedTheMropeFps) {
  write("anim.gif", gif(112, 112, 8, 25));
  const Layout l = parseLayoutSpec("t3,vid:anim.gif,t2", ctx());
  const Segment& s = l.segments[1];
  EXPECT_EQ(s.source.kind, SourceKind::Animation);
  EXPECT_EQ(s.source.frameCount, 8);
  EXPECT_EQ(s.frames, 4);
  EXPECT_DOUBLE_EQ(s.source.fps, 4.0);
  // The design's fps parameter is what the ids use: at 4 fps and 2 tokens per second, tau(k) =
  // floor(k * 2/4 * 2) = k, so the 4 temporal patches get 4 distinct t ids one apart.
  ParameterSet p;
  p.set("fps", s.source.fps);
  const PositionIds ids = findDesign("mrope").ids(l, p);
  std::set<double> t;
  for (std::size_t i = 0; i < ids.tokens.size(); ++i)
    if (ids.tokens[i].modality == Modality::Video) t.insert(ids.ids[i][0]);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_DOUBLE_EQ(*t.rbegin() - *t.begin(), 3.0);
  // As an image, an animated GIF is its first frame.
  EXPECT_EQ(parseLayoutSpec("img:anim.gif", ctx()).segments[0].kind, SegmentKind::Image);
}

TEST_F(Files, EveryBadFileIsRefusedNamingTheFileAndTheItem) {
  const std::pair<std::string, Bytes> files[] = {
      {"empty.png", ""},
      {"cut.png", png(640, 480).substr(0, 20)},
      {"text.jpg", "just some text\n"},
      {"layers.psd", Bytes("8BPS\0\x01\0\0\0\0", 10)},
      {"narrow.png", png(20, 400)},
      {"thin.png", png(6000, 28)},
      {"huge.png", png(30000, 30000)},
  };
  const char* expected[] = {
      "empty",           "truncated",    "not a picture", "unsupported format",
      "shorter than 28", "aspect ratio", "too large"};
  for (std::size_t i = 0; i < std::size(files); ++i) {
    const std::string path = write(files[i].first, files[i].second);
    const std::string m = refusal("t2,img:" + files[i].first + ",t2");
    EXPECT_TRUE(contains(m, expected[i])) << m;
    EXPECT_TRUE(contains(m, path)) << m;
    EXPECT_TRUE(contains(m, "layout item 2")) << m;
  }
  EXPECT_TRUE(contains(refusal("img:missing.png"), "file not found"));
  EXPECT_TRUE(contains(refusal("t1,img:"), "img: needs a file"));
  EXPECT_TRUE(contains(refusal("vid:a.png++b.png"), "empty frame name"));
}

TEST_F(Files, WrongExtensionIsReadByContentWithAWarning) {
  write("really-a-gif.png", gif(56, 56, 1, 0));
  const Segment s = parseLayoutSpec("img:really-a-gif.png", ctx()).segments[0];
  EXPECT_EQ(s.rows, 2);
  ASSERT_EQ(s.source.warnings.size(), 1u);
  EXPECT_TRUE(contains(s.source.warnings[0], "content is GIF")) << s.source.warnings[0];
}

TEST_F(Files, RegridFollowsTheSettings) {
  write("photo.png", png(640, 480));
  Layout l = parseLayoutSpec("t1,img:photo.png", ctx());
  ImageGridSettings small;
  small.maxPixels = 28 * 28 * 64;  // at most 64 tokens
  regridLayout(l, small);
  EXPECT_LE(l.segments[1].tokenCount(), 64u);
  // Python: beta = sqrt(640*480/50176) = 2.4744..., floor(480/beta/28) = 6, floor(640/beta/28) = 9
  EXPECT_EQ(l.segments[1].rows, 6);
  EXPECT_EQ(l.segments[1].cols, 9);
  regridLayout(l, {});
  EXPECT_EQ(l.segments[1].rows, 17);
}

TEST_F(Files, SceneStoresPathsRelativeToItselfAndTheGridSettings) {
  write("project/pics/photo.png", png(640, 480));
  write("project/clip/f1.png", png(56, 56));
  Scene s = defaultScene();
  s.imageGrid = imageGridPreset("qwen3-vl");
  s.layout =
      parseLayoutSpec("t4,img:project/pics/photo.png,t2,vid:project/clip/,t1", ctx(s.imageGrid));
  const std::string scenePath = (dir_ / "project" / "scene.json").string();
  saveSceneFile(s, scenePath);
  std::ifstream in(scenePath);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_TRUE(contains(text, "\"t4,img:pics/photo.png,t2,vid:clip/,t1\"")) << text;
  EXPECT_TRUE(contains(text, "\"min_pixels\": 65536")) << text;
  EXPECT_TRUE(contains(text, "\"patch\": 16")) << text;
  EXPECT_EQ(loadSceneFile(scenePath), s);
  // The whole project moves: relative paths still find the pictures.
  fs::rename(dir_ / "project", dir_ / "moved");
  const Scene moved = loadSceneFile((dir_ / "moved" / "scene.json").string());
  EXPECT_EQ(moved.layout.segments[1].rows, 15);
  EXPECT_EQ(moved.imageGrid, s.imageGrid);
  EXPECT_TRUE(contains(moved.layout.segments[1].source.path, "moved"));
}

TEST_F(Files, APictureThatDisappearsIsNamedAndTheRestCanBeKept) {
  const std::string photo = write("photo.png", png(640, 480));
  write("other.png", png(56, 56));
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,img:photo.png,t2,img:other.png,t1", ctx());
  const std::string scenePath = (dir_ / "scene.json").string();
  saveSceneFile(s, scenePath);
  fs::remove(photo);
  try {
    loadSceneFile(scenePath);
    FAIL() << "a scene with a missing picture loaded";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_TRUE(contains(m, photo)) << m;
    EXPECT_TRUE(contains(m, "file not found")) << m;
    EXPECT_TRUE(contains(m, scenePath)) << m;
  }
  const SceneLoadReport r = loadSceneFileReport(scenePath);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].item, 2u);
  EXPECT_EQ(r.problems[0].text, "img:photo.png");
  EXPECT_TRUE(contains(r.problems[0].message, photo)) << r.problems[0].message;
  EXPECT_EQ(formatLayoutSpec(r.scene.layout, dir_.string()), "t4,t2,img:other.png,t1");
  EXPECT_EQ(r.scene.design, s.design);
  // Nothing missing: no problems, the same scene as the strict load.
  write("photo.png", png(640, 480));
  const SceneLoadReport ok = loadSceneFileReport(scenePath);
  EXPECT_TRUE(ok.problems.empty());
  EXPECT_EQ(ok.scene, loadSceneFile(scenePath));
}

TEST_F(Files, SceneRefusesBadImageGridSettings) {
  const char* cases[][2] = {
      {R"({"format":"ropescope-scene","version":1,"layout":"t1,i2x2","image_grid":{"patch":0}})",
       "patch"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1,i2x2","image_grid":{"min_pixels":9,"max_pixels":8}})",
       "min_pixels"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1,i2x2","image_grid":{"zoom":2}})",
       "unknown key"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1,i2x2","image_grid":{"max_pixels":"lots"}})",
       "whole number"}};
  for (const auto& c : cases) {
    try {
      sceneFromJson(c[0]);
      FAIL() << c[0];
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.what(), c[1])) << e.what();
    }
  }
}

TEST(SamplePictures, GiveTheGridsTheReadmePromises) {
  const LayoutFileContext ctx{samples().string(), {}};
  const Layout l = parseLayoutSpec(
      "t1,img:castle.png,img:castle.jpg,img:checker.png,vid:moving.gif,vid:frames/", ctx);
  EXPECT_EQ(l.segments[1].rows, 9);
  EXPECT_EQ(l.segments[1].cols, 11);
  EXPECT_EQ(l.segments[2].rows, 9);
  EXPECT_EQ(l.segments[3].tokenCount(), 64u);
  EXPECT_EQ(l.segments[4].frames, 4);
  EXPECT_EQ(l.segments[4].rows, 4);
  EXPECT_DOUBLE_EQ(l.segments[4].source.fps, 4.0);
  EXPECT_EQ(l.segments[5].frames, 2);
  for (const Segment& s : l.segments) EXPECT_TRUE(s.source.warnings.empty());
}
