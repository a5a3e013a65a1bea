// End-to-end tests of `ropescope grid` and of picture files in --layout / --scene: real
// processes, their stdout, stderr, exit status and peak memory. Expected grids are Python
// smart_resize values (see tests/core/image_grid_test.cpp for the function), written here as
// numbers; bad files are written by the test at run time.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <sstream>
#include <tuple>
#include "cli_harness.h"
#include "ropescope/image_grid.h"
#include "ropescope/image_probe.h"
#include "ropescope/model_family.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-grid-cli");
  return dir;
}

const fs::path samples() {
  return fs::path(ROPESCOPE_SAMPLES);
}

ProcessResult runIn(const fs::path& cwd, const std::vector<std::string>& args) {
  return runProcess(workDir(), cwd, args);
}

ProcessResult run(const std::vector<std::string>& args) {
  return runIn(workDir(), args);
}

void be32(std::string& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b += static_cast<char>(v >> s & 255);
}

std::string pngChunk(const char* type, const std::string& data) {
  std::string b;
  be32(b, static_cast<std::uint32_t>(data.size()));
  return b + type + data + std::string(4, '\0');
}

std::string png(std::uint32_t w, std::uint32_t h) {
  std::string ihdr;
  be32(ihdr, w);
  be32(ihdr, h);
  ihdr += std::string("\x08\x02\0\0\0", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + pngChunk("IDAT", "xx") +
         pngChunk("IEND", "");
}

std::string write(const std::string& rel, const std::string& bytes) {
  const fs::path p = workDir() / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

// Status 2, nothing on stdout, one line on stderr that names `file` and says `problem`.
void expectRefused(const ProcessResult& r, const std::string& file, const std::string& problem) {
  expectOneLineError(r, file, {file, problem});
}

// Leaves no fixtures behind in the temporary folder.
class RemoveFixtures : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(workDir()); }
};
[[maybe_unused]] ::testing::Environment* const kRemoveFixtures =
    ::testing::AddGlobalTestEnvironment(new RemoveFixtures);

}  // namespace

TEST(GridCli, PrintsSizesGridsAndTokensOfTheSamples) {
  const ProcessResult r =
      runIn(samples(), {"grid", "castle.png", "castle.jpg", "checker.png", "moving.gif"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 4u);
  const json castle = {{"file", "castle.png"},  {"width", 320},    {"height", 240},
                       {"resized", {252, 308}}, {"grid", {9, 11}}, {"tokens", 99}};
  EXPECT_EQ(j[0], castle);
  std::vector<std::string> keys;
  for (auto it = j[0].begin(); it != j[0].end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"file", "grid", "height", "resized", "tokens", "width"}));
  EXPECT_EQ(j[1]["grid"], json({9, 11}));
  EXPECT_EQ(j[2]["resized"], json({224, 224}));
  EXPECT_EQ(j[2]["tokens"], 64);
  EXPECT_EQ(j[3]["grid"], json({4, 4}));  // a GIF as a picture: its first frame
  // ... and says it is a video: 8 frames in 4 temporal patches, 4 x 16 tokens as vid:moving.gif.
  EXPECT_EQ(j[3]["tokens"], 16);
  EXPECT_EQ(j[3]["frames"], 8);
  EXPECT_EQ(j[3]["temporal_patches"], 4);
  EXPECT_EQ(j[3]["video_tokens"], 64);
  for (int still = 0; still < 3; ++still) EXPECT_FALSE(j[still].contains("frames")) << still;
  // The file is printed as given and the order is kept.
  const std::string text = r.out;
  EXPECT_LT(text.find("castle.jpg"), text.find("checker.png"));
}

// A user's-eye report: layouts take the shipped samples by name (img:castle.png) but `grid
// castle.png` said "file not found" outside the samples folder. Where no such file is, the name
// reads the sample; a file of that name here wins; another missing name is still refused.
TEST(GridCli, ASampleNameReadsTheShippedSample) {
  const fs::path here = workDir() / "sample-names";
  fs::create_directories(here);
  const ProcessResult r = runIn(here, {"grid", "castle.png"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["file"], "castle.png");
  EXPECT_EQ(j[0]["width"], 320);
  EXPECT_EQ(j[0]["tokens"], 99);
  std::ofstream(here / "castle.png", std::ios::binary) << png(64, 32);
  const ProcessResult own = runIn(here, {"grid", "castle.png"});
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_EQ(json::parse(own.out)[0]["width"], 64);
  const ProcessResult missing = runIn(here, {"grid", "castle2.png"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("castle2.png: file not found"), std::string::npos) << missing.err;
}

TEST(GridCli, SettingsAndPresetsChangeTheGrid) {
  write("photo.png", png(640, 480));
  auto grid = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"grid"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("photo.png");
    const ProcessResult r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    return std::make_tuple(j[0]["resized"], j[0]["grid"], j[0]["tokens"].get<int>());
  };
  EXPECT_EQ(grid({}), std::make_tuple(json({476, 644}), json({17, 23}), 391));
  EXPECT_EQ(grid({"--preset", "qwen3-vl"}), std::make_tuple(json({480, 640}), json({15, 20}), 300));
  EXPECT_EQ(grid({"--max-pixels", "50176"}), std::make_tuple(json({168, 252}), json({6, 9}), 54));
  EXPECT_EQ(grid({"--patch=16", "--merge=1"}),
            std::make_tuple(json({480, 640}), json({30, 40}), 1200));
  write("small.png", png(56, 56));
  const ProcessResult r = run({"grid", "--min-pixels", "200704", "small.png"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)[0]["resized"], json({448, 448}));
  // A preset and an explicit option: the option wins whatever the order.
  EXPECT_EQ(grid({"--max-pixels", "50176", "--preset", "qwen2.5-vl"}),
            std::make_tuple(json({168, 252}), json({6, 9}), 54));
}

TEST(GridCli, WritesToOutAndHasHelp) {
  write("photo.png", png(640, 480));
  const fs::path out = workDir() / "grid.json";
  fs::remove(out);
  const ProcessResult r = run({"grid", "--out", out.string(), "photo.png"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(json::parse(slurp(out))[0]["tokens"], 391);
  const ProcessResult h = run({"grid", "--help"});
  EXPECT_EQ(h.status, 0);
  for (const char* opt :
       {"--min-pixels", "--max-pixels", "--patch", "--merge", "--preset", "--out", "qwen3-vl"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
  // Every preset with its processor's published numbers (the help named two of the four).
  for (const char* preset :
       {"qwen2.5-vl  14, 2, 3136, 12845056, qwen", "qwen3-vl    16, 2, 65536, 16777216, qwen",
        "glm4v       14, 2, 12544, 11760000, glm4v", "ernie4.5-vl 14, 2, 3136, 4842768, ernie"})
    EXPECT_NE(h.out.find(preset), std::string::npos) << preset << "\n" << h.out;
}

TEST(GridCli, EveryBadFileExitsTwoWithOneLineAndNoOutput) {
  write("good.png", png(640, 480));
  const std::pair<std::string, std::string> files[] = {
      {"empty.png", ""},
      {"cut.png", png(640, 480).substr(0, 30)},
      {"notes.jpg", "a text file, not a picture\n"},
      {"layers.psd", std::string("8BPS\0\x01\0\0\0\0\0\0", 12)},
      {"narrow.png", png(27, 300)},
      {"banner.png", png(5601, 28)},
      {"huge.png", png(30000, 30000)}};
  const char* problems[] = {"empty",           "truncated",    "not a picture", "unsupported",
                            "shorter than 28", "aspect ratio", "too large"};
  for (std::size_t i = 0; i < std::size(files); ++i) {
    write(files[i].first, files[i].second);
    SCOPED_TRACE(files[i].first);
    // The bad file second: the good one before it must not be printed either.
    expectRefused(run({"grid", "good.png", files[i].first}), files[i].first, problems[i]);
  }
  expectRefused(run({"grid", "missing.png"}), "missing.png", "not found");
  // With --out, no file is left behind.
  const fs::path out = workDir() / "never.json";
  fs::remove(out);
  expectRefused(run({"grid", "--out", out.string(), "good.png", "empty.png"}), "empty.png",
                "empty");
  EXPECT_FALSE(fs::exists(out));
}

TEST(GridCli, WrongExtensionIsReadByContentWithAWarning) {
  write("really-png.jpg", png(640, 480));
  const ProcessResult r = run({"grid", "really-png.jpg"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)[0]["grid"], json({17, 23}));
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("content is PNG"), std::string::npos) << r.err;
}

// The promise of docs/user/inputs.md ("read by content, with a warning") holds for every
// subcommand that reads pictures through --layout, not only grid: the same one line on stderr,
// once, and the numbers of the picture's content.
TEST(GridCli, EverySubcommandWarnsOfAWrongExtensionOnce) {
  write("really-png.jpg", png(640, 480));
  const std::string warning = "ropescope: warning: " + (workDir() / "really-png.jpg").string() +
                              ": the extension says JPEG but the content is PNG; read as PNG\n";
  for (const char* command : {"ids", "ptd", "bias", "attention"}) {
    std::vector<std::string> args{command, "--layout", "t2,img:really-png.jpg,t2"};
    if (std::string(command) == "attention") args.insert(args.end(), {"--backend", "cpu"});
    const ProcessResult r = run(args);
    ASSERT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_EQ(r.err, warning) << command;
  }
  // A scene file that names the picture: the same line.
  std::ofstream(workDir() / "wrong-ext.json")
      << R"({"format": "ropescope-scene", "version": 1, "layout": "t2,img:really-png.jpg,t2"})";
  const ProcessResult s = run({"ids", "--scene", "wrong-ext.json"});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(s.err, warning);
  // A picture whose extension agrees says nothing.
  write("plain.png", png(640, 480));
  const ProcessResult q = run({"ptd", "--layout", "t2,img:plain.png,t2"});
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_TRUE(q.err.empty()) << q.err;
}

TEST(GridCli, HugeHeaderIsRefusedWithSmallPeakMemory) {
  write("huge.png", png(30000, 30000));
  const ProcessResult r = run({"grid", "huge.png"});
  expectRefused(r, "huge.png", "too large");
  // 30000 x 30000 decoded would take 2.5 GiB at 24 bits; the refusal needs a few MiB. Under
  // AddressSanitizer the runtime alone (shadow memory, quarantine) takes about 70 MiB.
#if defined(ROPESCOPE_ASAN)
  constexpr long kLimitKiB = 160 * 1024;
#else
  constexpr long kLimitKiB = 64 * 1024;
#endif
  EXPECT_LT(r.maxRssKiB, kLimitKiB) << "peak " << r.maxRssKiB << " KiB";
}

TEST(GridCli, BadOptionsAreRefused) {
  write("photo.png", png(640, 480));
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"grid"}, "at least one picture"},
      {{"grid", "--min-pixels", "0", "photo.png"}, "--min-pixels"},
      {{"grid", "--patch", "x", "photo.png"}, "--patch"},
      {{"grid", "--merge", "99", "photo.png"}, "merge"},
      {{"grid", "--preset", "llava", "photo.png"}, "qwen3-vl"},
      {{"grid", "--min-pixels", "9000", "--max-pixels", "8000", "photo.png"}, "min_pixels"},
      {{"grid", "--zoom", "photo.png"}, "unknown option"},
      {{"grid", "photo.png", "--max-pixels"}, "needs a value"}};
  for (const auto& [args, mention] : cases) {
    const ProcessResult r = run(args);
    EXPECT_EQ(r.status, 2) << mention << ": " << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
  }
}

TEST(LayoutCli, ImageItemsWorkForIdsPtdAndBias) {
  write("pics/photo.png", png(640, 480));
  const ProcessResult ids =
      run({"ids", "--layout", "t5,img:pics/photo.png,t3", "--design", "mrope"});
  ASSERT_EQ(ids.status, 0) << ids.err;
  const json j = json::parse(ids.out);
  ASSERT_EQ(j["tokens"].size(), 5u + 17 * 23 + 3);
  int visual = 0;
  for (const json& t : j["tokens"]) visual += t["modality"] == "image";
  EXPECT_EQ(visual, 17 * 23);
  for (const char* cmd : {"ptd", "bias"}) {
    const ProcessResult r = run({cmd, "--layout", "t5,img:pics/photo.png,t3", "--design", "mrope"});
    EXPECT_EQ(r.status, 0) << cmd << ": " << r.err;
    EXPECT_NO_THROW(json::parse(r.out)) << r.out;
  }
  // Relative to the current folder: from elsewhere the same spec finds nothing.
  const ProcessResult elsewhere =
      runIn(workDir() / "pics", {"ptd", "--layout", "t5,img:pics/photo.png,t3"});
  expectRefused(elsewhere, "photo.png", "not found");
  write("bad.png", png(20, 20));
  expectRefused(run({"ptd", "--layout", "t2,img:bad.png,t2"}), "bad.png", "shorter than 28");
}

TEST(LayoutCli, VideoItemsAndScenePathsRelativeToTheSceneFile) {
  const ProcessResult gif = runIn(samples(), {"ids", "--layout", "t2,vid:moving.gif,t2", "--design",
                                              "mrope", "--param", "fps=4"});
  ASSERT_EQ(gif.status, 0) << gif.err;
  EXPECT_EQ(json::parse(gif.out)["tokens"].size(), 2u + 4 * 4 * 4 + 2);
  const ProcessResult folder = runIn(samples(), {"ptd", "--layout", "t2,vid:frames/,t2"});
  EXPECT_EQ(folder.status, 0) << folder.err;

  write("project/pics/photo.png", png(640, 480));
  write(
      "project/scene.json",
      R"({"format":"ropescope-scene","version":1,"layout":"t3,img:pics/photo.png,t2",)"
      R"("design":"mrope","image_grid":{"patch":16,"merge":2,"min_pixels":65536,"max_pixels":16777216}})");
  const ProcessResult r = runIn(fs::temp_directory_path(),
                                {"ids", "--scene", (workDir() / "project/scene.json").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["tokens"].size(), 3u + 15 * 20 + 2);  // Qwen3-VL grid
  fs::remove(workDir() / "project/pics/photo.png");
  expectRefused(runIn(fs::temp_directory_path(),
                      {"ids", "--scene", (workDir() / "project/scene.json").string()}),
                "photo.png", "not found");
}

// the image-grid options of `grid` are options of every command that takes a
// layout, through the one option table, and give the same grid as `grid` does.
TEST(LayoutCli, ImageGridOptionsWorkForEveryLayoutCommand) {
  write("pics/photo.png", png(640, 480));
  const std::string layout = "t2,img:pics/photo.png,t1";
  const ProcessResult g = run({"grid", "--grid-preset", "qwen3-vl", "pics/photo.png"});
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_EQ(json::parse(g.out)[0]["grid"], json({15, 20}));
  // The same picture as a layout item, under the same settings, has 15 x 20 tokens.
  const std::vector<std::vector<std::string>> settings = {
      {"--grid-preset", "qwen3-vl"},
      {"--patch", "16", "--min-pixels", "65536", "--max-pixels", "16777216"},
      {"--patch=16", "--merge=2", "--grid-preset=qwen2.5-vl", "--min-pixels=65536"}};
  for (const auto& s : settings) {
    std::vector<std::string> args = {"ids", "--layout", layout, "--design", "mrope"};
    args.insert(args.end(), s.begin(), s.end());
    const ProcessResult r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    int visual = 0;
    for (const json& t : j["tokens"]) visual += t["modality"] == "image";
    EXPECT_EQ(visual, 15 * 20) << s[0];
  }
  // Every layout command takes them: attention at merge 4 (factor 64) has 8 x 10 tokens.
  const ProcessResult att = run({"attention", "--layout", layout, "--grid-preset", "qwen3-vl",
                                 "--merge", "4", "--backend", "cpu"});
  ASSERT_EQ(att.status, 0) << att.err;
  EXPECT_EQ(json::parse(att.out)["tokens"], 3 + 8 * 10);
  for (const char* cmd : {"ptd", "bias"}) {
    const ProcessResult r = run({cmd, "--layout", layout, "--grid-preset", "qwen3-vl"});
    EXPECT_EQ(r.status, 0) << cmd << ": " << r.err;
    EXPECT_EQ(json::parse(r.out)["per_text"].size(), 3u) << cmd;
  }
  // render (a figure preset is --preset there): the option is known; the data view has the
  // Qwen3-VL grid's tokens.
  const ProcessResult render = run({"render", "--view", "space", "--layout", layout,
                                    "--grid-preset", "qwen3-vl", "--out", "grid-space.csv"});
  if (render.err.find("desktop build") == std::string::npos) {
    EXPECT_EQ(render.status, 0) << render.err;
    const std::string csv = slurp(workDir() / "grid-space.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 + 15 * 20) << csv.substr(0, 200);
  }
}

// A model family chosen as the design cuts pictures as its own image processor does, as it
// brings its rotary: `grid` and `ids` under --design F give F's grid (its preset), for every
// family of the registry. Qwen3-VL cut 9 x 11 castle tokens with Qwen2.5-VL's 28 px where its
// processor's 32 px give 8 x 10.
TEST(GridCli, AFamilyDesignBringsItsProcessorsGrid) {
  using namespace ropescope;
  const std::string castle = (samples() / "castle.png").string();
  const ImageInfo info = probeImage(castle);
  for (const ModelFamily* f : allFamilies()) {
    SCOPED_TRACE(f->name());
    const ImageGrid expected = smartResize(info.height, info.width, f->imageGrid());
    const ProcessResult g = run({"grid", "--design", f->name(), castle});
    ASSERT_EQ(g.status, 0) << g.err;
    EXPECT_EQ(json::parse(g.out)[0]["tokens"], expected.tokens());
    const ProcessResult ids =
        run({"ids", "--layout", "t2,img:" + castle + ",t1", "--design", f->name()});
    ASSERT_EQ(ids.status, 0) << ids.err;
    long long visual = 0;
    // Held: a range-for over a member of a temporary would read freed memory.
    const json out = json::parse(ids.out);
    for (const json& t : out["tokens"]) visual += t["modality"] == "image";
    EXPECT_EQ(visual, expected.tokens());
  }
  // The grid options given still decide over the family's grid.
  ImageGridSettings patch14 = findFamily("qwen3-vl").imageGrid();
  patch14.patch = 14;
  const ProcessResult p = run({"grid", "--design", "qwen3-vl", "--patch", "14", castle});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(json::parse(p.out)[0]["tokens"],
            smartResize(info.height, info.width, patch14).tokens());
}
