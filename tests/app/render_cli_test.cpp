// `ropescope render` end to end: lists, one-line errors, charts without a display,
// the xvfb-run message for 3-D views without one, and CSV against `ropescope decay`.
// RenderCliX.* need an X display (run under xvfb-run, label gui).
#include <cmath>
#include <map>

#include "cli_harness.h"

using namespace ropescope::cli_harness;

namespace {

fs::path work() {
  static const fs::path dir = makeWorkDir("ropescope-render-cli");
  return dir;
}

ProcessResult run(const std::vector<std::string>& args, bool hideDisplay = true) {
  return runProcess(work(), work(), args, hideDisplay);
}

// Width and height from a PNG's IHDR chunk.
std::pair<unsigned, unsigned> pngSize(const fs::path& p) {
  const std::string s = slurp(p);
  if (s.size() < 24 || s.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be = [&](std::size_t at) {
    unsigned v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
    return v;
  };
  return {be(16), be(20)};
}

std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream r(line);
    for (std::string cell; std::getline(r, cell, ',');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

const char* kViews[] = {"space",        "compare",   "decay",       "decay-subset", "ptd",
                        "bias",         "profile",   "wavelengths", "age",          "picture",
                        "picture-bias", "attention", "phasor",      "principles"};
const char* kPresets[] = {"circle-four-schemes", "circle-picture",        "age-schedule",
                          "roformer-decay",      "revisiting-mrope",      "revisiting-mhrope",
                          "revisiting-mrope-i",  "revisiting-principles", "omni-tmrope"};

}  // namespace

TEST(RenderCli, ListsEveryViewAndPreset) {
  const ProcessResult v = run({"render", "--list-views"});
  ASSERT_EQ(v.status, 0) << v.err;
  for (const char* name : kViews)
    EXPECT_NE(("\n" + v.out).find(std::string("\n") + name + " "), std::string::npos) << name;
  EXPECT_NE(v.out.find("needs X"), std::string::npos);
  const ProcessResult p = run({"render", "--list-presets"});
  ASSERT_EQ(p.status, 0) << p.err;
  for (const char* name : kPresets) EXPECT_NE(p.out.find(name), std::string::npos) << name;
  const ProcessResult h = run({"render", "--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--list-presets"), std::string::npos);
  EXPECT_NE(h.out.find("--layout"), std::string::npos);  // the shared scene options
  const ProcessResult top = run({"--help"});
  EXPECT_NE(top.out.find("render"), std::string::npos);
}

TEST(RenderCli, BadValuesAreOneLineErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"render", "--view", "decay", "--out", "a.png", "--size", "10x10"}, {"--size", "16..8192"}},
      {{"render", "--view", "decay", "--out", "a.png", "--size", "wide"}, {"--size", "WxH"}},
      {{"render", "--view", "decay", "--out", "a.png", "--scale", "99"}, {"--scale", "0.5..16"}},
      {{"render", "--view", "decay", "--out", "a.png", "--max-distance", "0"},
       {"--max-distance", "1..1000000"}},
      {{"render", "--view", "nope", "--out", "a.png"}, {"unknown view", "decay"}},
      {{"render", "--preset", "nope", "--out", "a.png"}, {"unknown preset", "roformer-decay"}},
      {{"render", "--view", "compare", "--out", "a.svg"}, {"accepted extensions", ".png"}},
      {{"render", "--view", "decay"}, {"--out"}},
      {{"render", "--view", "decay", "--out", "a.png", "--design", "nope"}, {"nope"}},
      {{"render", "--preset", "roformer-decay", "--out", "missing-dir/a.png"}, {"cannot write"}},
      {{"render", "--view", "decay", "--out", "a.png", "--size", "160x120"}, {"--size", "252x189"}},
      // Inside 0.5..16 but too large for the size: the message gives the largest that fits.
      {{"render", "--view", "decay", "--out", "a.png", "--scale", "16"},
       {"--scale", "at most 4.16", "--size 3840x2880"}},
      {{"render", "--view", "phasor", "--out", "a.png", "--distance", "5000"},
       {"--distance", "0..4096"}},
      {{"render", "--view", "phasor", "--out", "a.png", "--distance", "x"},
       {"--distance", "0..4096"}},
      {{"render", "--view", "phasor", "--out", "a.png", "--along", "q"},
       {"--along", "t, h, w or thw"}},
      {{"render", "--view", "decay", "--out", "a.png", "--distance", "3"},
       {"--distance", "--view phasor"}},
  };
  for (const auto& [args, mentions] : cases)
    expectOneLineError(run(args), joinArgs(args), mentions);
  EXPECT_FALSE(fs::exists(work() / "a.png"));
}

// Item 6b: the Phasors tab's picture and numbers, headless.
TEST(RenderCli, PhasorViewRendersForADistanceAlongAnAxis) {
  const ProcessResult csv = run(
      {"render", "--view", "phasor", "--distance", "100", "--along", "h", "--out", "phasor.csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = csvRows(slurp(work() / "phasor.csv"));
  ASSERT_GT(rows.size(), 2u);
  EXPECT_EQ(rows[0][3] + "," + rows[0][4] + "," + rows[0][5], "delta_t,delta_h,delta_w");
  EXPECT_EQ(rows[1][3] + "," + rows[1][4] + "," + rows[1][5], "0,100,0");
  const ProcessResult png = run({"render", "--view", "phasor", "--distance", "100", "--along",
                                 "thw", "--out", "phasor.png", "--size", "640x480"});
  ASSERT_EQ(png.status, 0) << png.err;
  EXPECT_EQ(pngSize(work() / "phasor.png"), std::make_pair(640u, 480u));
}

// A video's picture figures: --temporal-patch K draws and names temporal patch K (the figure
// held the first pair, unnamed, and render had no option to choose), the CSV holds every patch
// with a column saying which, and a patch the video lacks, or the option on another view, is
// one line naming what is accepted.
TEST(RenderCli, PictureViewsOfAVideoShowTheTemporalPatchAsked) {
  const std::string layout = std::string("t4,vid:") + ROPESCOPE_SAMPLES + "/moving.gif,t4";
  const ProcessResult csv =
      run({"render", "--layout", layout, "--view", "picture", "--out", "video.csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = csvRows(slurp(work() / "video.csv"));
  ASSERT_GT(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "temporal");
  std::map<std::string, int> perPatch;
  for (std::size_t i = 1; i < rows.size(); ++i) ++perPatch[rows[i][0]];
  EXPECT_EQ(perPatch.size(), 4u) << "every temporal patch of moving.gif";
  const ProcessResult first = run({"render", "--layout", layout, "--view", "picture", "--out",
                                   "first.svg", "--size", "640x480"});
  const ProcessResult third =
      run({"render", "--layout", layout, "--view", "picture", "--temporal-patch", "2", "--out",
           "third.svg", "--size", "640x480"});
  ASSERT_EQ(first.status, 0) << first.err;
  ASSERT_EQ(third.status, 0) << third.err;
  EXPECT_NE(slurp(work() / "first.svg").find("temporal patch 0 of 4"), std::string::npos);
  EXPECT_NE(slurp(work() / "third.svg").find("temporal patch 2 of 4"), std::string::npos);
  EXPECT_NE(slurp(work() / "first.svg"), slurp(work() / "third.svg"));
  expectOneLineError(run({"render", "--layout", layout, "--view", "picture", "--temporal-patch",
                          "4", "--out", "past.png"}),
                     "past the video", {"--temporal-patch 4", "video 1", "0..3"});
  expectOneLineError(
      run({"render", "--view", "decay", "--temporal-patch", "1", "--out", "past.png"}),
      "another view", {"--temporal-patch", "picture, picture-bias", "--view decay"});
  expectOneLineError(
      run({"render", "--view", "picture", "--temporal-patch", "-1", "--out", "past.png"}),
      "negative", {"--temporal-patch", "0.."});
  EXPECT_FALSE(fs::exists(work() / "past.png"));
}

// A layout of several pictures or sounds: --segment N draws the one asked for and names it (the
// figures always showed the first), anything else is one line naming the segments that fit.
TEST(RenderCli, SegmentChoosesAmongSeveralPicturesAndSounds) {
  const std::string samples = ROPESCOPE_SAMPLES;
  const std::string layout =
      "t4,img:" + samples + "/checker.png,t2,img:" + samples + "/castle.png,t2,a10,t2,a20,t2";
  const ProcessResult first =
      run({"render", "--layout", layout, "--view", "picture", "--out", "first.csv"});
  const ProcessResult second = run(
      {"render", "--layout", layout, "--view", "picture", "--segment", "3", "--out", "second.csv"});
  ASSERT_EQ(first.status, 0) << first.err;
  ASSERT_EQ(second.status, 0) << second.err;
  // Column 3 is the visual token's index: the checker's tokens come first, then the castle's.
  const auto firstRows = csvRows(slurp(work() / "first.csv"));
  const auto secondRows = csvRows(slurp(work() / "second.csv"));
  ASSERT_GT(firstRows.size(), 1u);
  ASSERT_GT(secondRows.size(), 1u);
  ASSERT_EQ(firstRows[0][3], "visual");
  const auto smallest = [](const std::vector<std::vector<std::string>>& rows) {
    long low = -1;
    for (std::size_t i = 1; i < rows.size(); ++i)
      low = low < 0 ? std::stol(rows[i][3]) : std::min(low, std::stol(rows[i][3]));
    return low;
  };
  EXPECT_EQ(smallest(firstRows), 0);
  EXPECT_EQ(smallest(secondRows), static_cast<long>(firstRows.size() - 1))
      << "segment 3 is the castle, whose tokens follow the checker's";
  ASSERT_EQ(run({"render", "--layout", layout, "--view", "picture-bias", "--segment", "3", "--out",
                 "second.svg", "--size", "640x480"})
                .status,
            0);
  EXPECT_NE(slurp(work() / "second.svg").find("castle.png"), std::string::npos) << "its name";
  ASSERT_EQ(run({"render", "--layout", layout, "--view", "sound", "--segment", "7", "--out",
                 "sound.svg", "--size", "640x480"})
                .status,
            0);
  EXPECT_NE(slurp(work() / "sound.svg").find("audio 2"), std::string::npos);
  expectOneLineError(
      run({"render", "--layout", layout, "--view", "picture", "--segment", "0", "--out",
           "bad.png"}),
      "text",
      {"--segment 0", "segments 0..8", "1 is image 1 (checker.png)", "3 is image 2 (castle.png)"});
  expectOneLineError(
      run({"render", "--layout", layout, "--view", "sound", "--segment", "3", "--out", "bad.png"}),
      "a picture as sound", {"--segment 3", "5 is audio 1", "7 is audio 2"});
  expectOneLineError(
      run({"render", "--layout", layout, "--view", "decay", "--segment", "1", "--out", "bad.png"}),
      "another view", {"--segment", "picture, picture-bias", "sound", "--view decay"});
  EXPECT_FALSE(fs::exists(work() / "bad.png"));
}

TEST(RenderCli, ThreeDViewsWithoutADisplaySayToUseXvfbRun) {
  for (const char* view : {"space", "compare"}) {
    const std::vector<std::string> args = {
        "render", "--preset", "circle-four-schemes", "--view", view, "--out", "fig.png"};
    expectOneLineError(run(args), view, {"X display", "xvfb-run"});
  }
  // Their data needs no display.
  const ProcessResult r = run(
      {"render", "--preset", "circle-four-schemes", "--view", "compare", "--out", "compare.csv"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(work() / "compare.csv").rfind("design,ptd,token,modality,t,h,w\n", 0), 0u);
  // Nor the space view's id cloud, the bytes `ropescope ids --out` writes for the same scene.
  for (const char* name : {"cloud.ply", "cloud.gltf"}) {
    const ProcessResult c = run({"render", "--layout", "t2,i2x3,t1", "--design", "mrope", "--view",
                                 "space", "--out", std::string("render-") + name});
    ASSERT_EQ(c.status, 0) << name << ": " << c.err;
    const ProcessResult i =
        run({"ids", "--layout", "t2,i2x3,t1", "--design", "mrope", "--out", name});
    ASSERT_EQ(i.status, 0) << i.err;
    EXPECT_EQ(slurp(work() / (std::string("render-") + name)), slurp(work() / name)) << name;
  }
  // compare draws four designs: it has no one cloud.
  expectOneLineError(run({"render", "--preset", "circle-four-schemes", "--view", "compare", "--out",
                          "compare.ply"}),
                     "compare.ply", {".png, .csv, .json"});
}

TEST(RenderCli, ChartsRenderWithoutADisplay) {
  const ProcessResult png =
      run({"render", "--preset", "roformer-decay", "--out", "decay.png", "--size", "1200x800"});
  ASSERT_EQ(png.status, 0) << png.err;
  EXPECT_TRUE(png.err.empty()) << png.err;
  EXPECT_EQ(pngSize(work() / "decay.png"), std::make_pair(1200u, 800u));
  const ProcessResult svg = run({"render", "--scene", "scene.json", "--view", "decay", "--out",
                                 "decay.svg"});  // a missing scene file: one line
  expectOneLineError(svg, "missing scene", {"scene.json"});
  for (const char* ext : {"svg", "pdf"}) {
    const std::string out = std::string("ptd.") + ext;
    const ProcessResult r = run({"render", "--layout", "i3x3,t5", "--design", "hard", "--view",
                                 "ptd", "--out", out, "--no-title", "--no-legend"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string text = slurp(work() / out);
    EXPECT_NE(text.find(ext[0] == 's' ? "<svg" : "%PDF-"), std::string::npos) << ext;
    // What docs/user/figures.md says of the fonts: a PDF embeds DejaVu Sans, an SVG names it and
    // embeds nothing.
    if (ext[0] == 'p') {
      EXPECT_NE(text.find("/BaseFont /DejaVuSans"), std::string::npos);
      EXPECT_NE(text.find("/FontFile"), std::string::npos) << "the PDF's font is not embedded";
    } else {
      EXPECT_NE(text.find("font-family=\"DejaVu Sans\""), std::string::npos);
      EXPECT_EQ(text.find("@font-face"), std::string::npos);
      EXPECT_EQ(text.find("<font"), std::string::npos);
    }
  }
}

TEST(RenderCli, DecayCsvEqualsTheDecaySubcommand) {
  const ProcessResult r =
      run({"render", "--preset", "roformer-decay", "--view", "decay", "--out", "decay.csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  const ProcessResult d = run({"decay", "--plan", "vanilla", "--head-dim", "128", "--base", "10000",
                               "--axis", "t", "--max-distance", "256", "--format", "csv"});
  ASSERT_EQ(d.status, 0) << d.err;
  const auto a = csvRows(slurp(work() / "decay.csv"));
  const auto b = csvRows(d.out);
  ASSERT_EQ(a.size(), 258u);
  ASSERT_EQ(b.size(), a.size());
  EXPECT_EQ(a[0], (std::vector<std::string>{"distance", "U_t"}));
  for (std::size_t i = 1; i < a.size(); ++i) {
    ASSERT_EQ(b[i].size(), 2u);
    EXPECT_EQ(std::stod(a[i][0]), std::stod(b[i][0]));
    EXPECT_EQ(std::stod(a[i][1]), std::stod(b[i][1])) << "distance " << a[i][0];
  }
  // Scene options change a preset: a shorter range.
  const ProcessResult s =
      run({"render", "--preset", "roformer-decay", "--max-distance", "16", "--out", "short.csv"});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(csvRows(slurp(work() / "short.csv")).size(), 18u);
}

// --color-by: the app's "Colour by" for the 3-D views; a bad value, a view without tokens in 3-D
// or an animation: one line, exit 2, nothing written.
TEST(RenderCli, ColorByIsRefusedInOneLineWhereItMeansNothing) {
  const auto refused = [&](std::vector<std::string> args, const std::string& what,
                           std::vector<std::string> words) {
    args.insert(args.end(), {"--out", "colour.png"});
    expectOneLineError(run(args), what, std::move(words));
    EXPECT_FALSE(fs::exists(work() / "colour.png")) << what;
  };
  refused({"render", "--view", "space", "--color-by", "rainbow"}, "bad value",
          {"--color-by must be cell or modality", "rainbow"});
  refused({"render", "--view", "ptd", "--color-by", "modality"}, "2-D view",
          {"--color-by", "3-D views space and compare", "--view ptd"});
  refused({"render", "--preset", "roformer-decay", "--color-by", "cell"}, "a preset's 2-D view",
          {"--view decay"});
  refused({"render", "--animate", "alpha:0:1", "--color-by", "cell"}, "animation",
          {"--color-by", "--animate"});
  const ProcessResult help = run({"render", "--help"});
  EXPECT_NE(help.out.find("--color-by cell|modality"), std::string::npos) << help.out;
}

TEST(RenderCliX, ColorByModalityChangesTheTokensColoursOnly) {
  ASSERT_NE(std::getenv("DISPLAY"), nullptr) << "needs an X display: ctest runs it under xvfb-run";
  const auto render = [&](std::vector<std::string> extra, const std::string& out) {
    std::vector<std::string> args = {"render",  "--layout", "t4,i6x6,t4", "--design",
                                     "spatial", "--view",   "space",      "--size",
                                     "480x360", "--out",    out};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run(args, false);
    EXPECT_EQ(r.status, 0) << r.err;
    return slurp(work() / out);
  };
  const std::string plain = render({}, "plain.png");
  const std::string cell = render({"--color-by", "cell"}, "cell.png");
  const std::string modality = render({"--color-by", "modality"}, "modality.png");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(cell, plain);  // grid cell is the default
  EXPECT_NE(modality, plain);
  EXPECT_EQ(pngSize(work() / "modality.png"), std::make_pair(480u, 360u));
}

TEST(RenderCliX, ThreeDViewsRenderUnderXvfbAtTheRequestedSize) {
  ASSERT_NE(std::getenv("DISPLAY"), nullptr) << "needs an X display: ctest runs it under xvfb-run";
  const ProcessResult r = run({"render", "--preset", "circle-four-schemes", "--view", "compare",
                               "--out", "compare.png", "--size", "2400x1800"},
                              false);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(pngSize(work() / "compare.png"), std::make_pair(2400u, 1800u));
  const ProcessResult s = run({"render", "--preset", "circle-picture", "--out", "space.png",
                               "--size", "640x480", "--scale", "1"},
                              false);
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(pngSize(work() / "space.png"), std::make_pair(640u, 480u));
}

TEST(RenderCli, SceneFileAndJsonData) {
  {
    std::ofstream scene(work() / "s.json");
    scene << R"({"format": "ropescope-scene", "version": 1, "layout": "i3x3,t5",
                 "design": "hard"})";
  }
  const ProcessResult r =
      run({"render", "--scene", "s.json", "--view", "ptd", "--out", "ptd.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = slurp(work() / "ptd.json");
  // {"title": ..., "columns": [...], "rows": [{"design": "hard", ..., "ptd": 2.2222...}, ...]}
  const auto hard = text.find("\"design\": \"hard\"");
  ASSERT_NE(hard, std::string::npos) << text;
  const auto ptd = text.find("\"ptd\": ", hard);
  ASSERT_NE(ptd, std::string::npos);
  EXPECT_NEAR(std::stod(text.substr(ptd + 7)), 20.0 / 9.0, 1e-12);  // 9 consecutive ids
  const ProcessResult pdf =
      run({"render", "--scene", "s.json", "--view", "decay", "--out", "decay.pdf"});
  ASSERT_EQ(pdf.status, 0) << pdf.err;
  EXPECT_EQ(slurp(work() / "decay.pdf").rfind("%PDF-", 0), 0u);
}

// --preset is the scene the other options change wherever it stands on the command line (the
// parser hands it to render first, cli_parser.h), and a second one is refused.
TEST(RenderCli, PresetIsTheBaseWhereverItStands) {
  const auto data = [](const std::vector<std::string>& args, const std::string& out) {
    std::vector<std::string> all = {"render"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"--out", out});
    const ProcessResult r = run(all);
    EXPECT_EQ(r.status, 0) << r.err;
    return slurp(work() / out);
  };
  const std::string preset = data({"--preset", "roformer-decay"}, "preset.csv");
  const std::string before = data({"--preset", "roformer-decay", "--base", "500"}, "before.csv");
  const std::string after = data({"--base", "500", "--preset", "roformer-decay"}, "after.csv");
  EXPECT_FALSE(preset.empty());
  EXPECT_NE(before, preset);  // --base changed the preset's scene
  EXPECT_EQ(after, before);
  const ProcessResult twice =
      run({"render", "--preset", "roformer-decay", "--preset", "roformer-decay", "--out", "x.csv"});
  EXPECT_EQ(twice.status, 2);
  EXPECT_EQ(twice.err, "ropescope: --preset given twice\n");
}
