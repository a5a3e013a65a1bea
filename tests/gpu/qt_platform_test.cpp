// How ropescope starts Qt (ropescope_gpu/qt_platform.h), the one place for the desktop app,
// render, render --animate and the GPU backend: the platform chosen for each need, the user's
// choice kept, the private runtime folder; and, end to end, a command that draws 3-D views
// without a usable display says so in one line and exits 2 (an X display that does not answer
// used to abort render and render --animate inside Qt, SIGABRT).
#include "ropescope_gpu/qt_platform.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cli_harness.h"

using namespace ropescope::cli_harness;
using ropescope::gpu::prepareQtPlatform;
using ropescope::gpu::QtSurface;

namespace {

// Sets (or, with nullopt, unsets) variables for one test; puts the old values back.
class Env {
 public:
  Env(std::initializer_list<std::pair<const char*, std::optional<std::string>>> vars) {
    for (const auto& v : vars) {
      const char* old = std::getenv(v.first);
      saved_.push_back({v.first, old ? std::optional<std::string>(old) : std::nullopt});
      set(v.first, v.second);
    }
  }
  ~Env() {
    for (const auto& v : saved_) set(v.first, v.second);
  }

 private:
  static void set(const char* name, const std::optional<std::string>& value) {
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

std::string platform() {
  const char* p = std::getenv("QT_QPA_PLATFORM");
  return p ? p : "<unset>";
}

const std::optional<std::string> kUnset;

}  // namespace

TEST(QtPlatform, ImagesNeedNoDisplay) {
  const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", kUnset}};
  EXPECT_EQ(prepareQtPlatform(QtSurface::Images), "");
  EXPECT_EQ(platform(), "offscreen");
}

TEST(QtPlatform, ThreeDViewsNeedX11AndFallBackInsteadOfAborting) {
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", kUnset}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::X11OpenGl),
              "neither DISPLAY nor WAYLAND_DISPLAY is set");
    EXPECT_EQ(platform(), "<unset>") << "nothing chosen when it cannot work";
  }
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", ":7"}, {"WAYLAND_DISPLAY", kUnset}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::X11OpenGl), "");
    EXPECT_EQ(platform(), "xcb;offscreen");
  }
  {
    // XWayland: Qt is asked for X11 all the same (Debian's VTK and GLEW are GLX builds).
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", "w-0"}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::X11OpenGl), "");
    EXPECT_EQ(platform(), "xcb;offscreen");
  }
}

TEST(QtPlatform, TheUsersPlatformIsKeptOrRefusedWithItsName) {
  {
    const Env env{{"QT_QPA_PLATFORM", "xcb"}, {"DISPLAY", kUnset}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::X11OpenGl), "");
    EXPECT_EQ(prepareQtPlatform(QtSurface::Images), "");
    EXPECT_EQ(platform(), "xcb");
  }
  {
    const Env env{{"QT_QPA_PLATFORM", "offscreen"}, {"DISPLAY", ":7"}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::X11OpenGl),
              "the Qt platform \"offscreen\" cannot show OpenGL views");
    EXPECT_EQ(platform(), "offscreen");
  }
}

TEST(QtPlatform, GpuComputeTakesX11OrWayland) {
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", kUnset}};
    const std::string why = prepareQtPlatform(QtSurface::OpenGl);
    EXPECT_NE(why.find("DISPLAY is not set"), std::string::npos) << why;
    EXPECT_EQ(platform(), "<unset>");
  }
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", ":7"}, {"WAYLAND_DISPLAY", kUnset}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::OpenGl), "");
    EXPECT_EQ(platform(), "xcb;offscreen");
  }
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", "w-0"}};
    EXPECT_EQ(prepareQtPlatform(QtSurface::OpenGl), "");
    EXPECT_EQ(platform(), "wayland;offscreen");
  }
}

TEST(QtPlatform, APrivateRuntimeFolderWhenNoneIsSet) {
  {
    const Env env{{"XDG_RUNTIME_DIR", kUnset}, {"QT_QPA_PLATFORM", kUnset}};
    prepareQtPlatform(QtSurface::Images);
    const char* dir = std::getenv("XDG_RUNTIME_DIR");
    ASSERT_NE(dir, nullptr);
    struct stat st {};
    ASSERT_EQ(::lstat(dir, &st), 0) << dir;
    EXPECT_TRUE(S_ISDIR(st.st_mode)) << dir;
    EXPECT_EQ(st.st_uid, ::getuid()) << dir;
    EXPECT_EQ(st.st_mode & 0077, 0u) << dir << ": others may enter";
  }
  const Env env{{"XDG_RUNTIME_DIR", "/run/user/mine"}, {"QT_QPA_PLATFORM", kUnset}};
  prepareQtPlatform(QtSurface::Images);
  EXPECT_STREQ(std::getenv("XDG_RUNTIME_DIR"), "/run/user/mine");
}

// End to end: the command line's one line, exit 2, for each way a display can be missing.
class QtPlatformCli : public ::testing::Test {
 protected:
  void SetUp() override { work_ = makeWorkDir("ropescope-qtplatform"); }
  void TearDown() override { fs::remove_all(work_); }
  ProcessResult run(std::vector<std::string> args) {
    args.push_back("--out");
    args.push_back((work_ / out_).string());
    return runProcess(work_, work_, args);
  }
  fs::path work_;
  std::string out_ = "out.png";
};

const std::vector<std::string> kSpace = {"render", "--layout", "t2,i2x2,t2", "--view",
                                         "space",  "--size",   "320x240"};
const std::vector<std::string> kAnimate = {"render",    "--layout",  "t2,i2x2,t2",
                                           "--animate", "alpha:0:1", "--frames",
                                           "2",         "--size",    "160x120"};

TEST_F(QtPlatformCli, AnXDisplayThatDoesNotAnswerIsOneLineNotAnAbort) {
  const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", ":59999"}, {"WAYLAND_DISPLAY", kUnset}};
  expectOneLineError(run(kSpace), "render --view space", {"cannot open the X display :59999"});
  out_ = "anim.gif";
  expectOneLineError(run(kAnimate), "render --animate alpha",
                     {"cannot open the X display :59999", "xvfb-run"});
  EXPECT_FALSE(fs::exists(work_ / "out.png"));
  EXPECT_FALSE(fs::exists(work_ / "anim.gif"));
}

TEST_F(QtPlatformCli, NoDisplayOrAPlatformWithoutOpenGlIsOneLine) {
  {
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", kUnset}};
    expectOneLineError(run(kSpace), "render --view space, no display",
                       {"neither DISPLAY nor WAYLAND_DISPLAY is set", "xvfb-run"});
  }
  {
    // Wayland without XWayland: Qt tries X11, falls back to offscreen, and that is named.
    const Env env{{"QT_QPA_PLATFORM", kUnset}, {"DISPLAY", kUnset}, {"WAYLAND_DISPLAY", "w-0"}};
    expectOneLineError(run(kSpace), "render --view space, Wayland only",
                       {"DISPLAY is not set, and OpenGL views need X11 or XWayland"});
  }
  const Env env{{"QT_QPA_PLATFORM", "offscreen"}, {"DISPLAY", kUnset}};
  out_ = "anim.gif";
  expectOneLineError(run(kAnimate), "render --animate alpha, offscreen",
                     {"\"offscreen\" cannot show OpenGL views"});
}

TEST_F(QtPlatformCli, ChartsAndDistanceFramesNeedNoDisplay) {
  const Env env{{"QT_QPA_PLATFORM", kUnset},
                {"DISPLAY", kUnset},
                {"WAYLAND_DISPLAY", kUnset},
                {"XDG_RUNTIME_DIR", kUnset}};
  const ProcessResult chart = run({"render", "--preset", "roformer-decay", "--size", "320x240"});
  EXPECT_EQ(chart.status, 0) << chart.err;
  EXPECT_EQ(slurp(work_ / "out.png").compare(0, 4, "\x89PNG"), 0);
  out_ = "decay.gif";
  const ProcessResult gif = run({"render", "--layout", "t4,i6x6,t8", "--animate", "distance_h:0:64",
                                 "--frames", "3", "--size", "160x120"});
  EXPECT_EQ(gif.status, 0) << gif.err;
  EXPECT_EQ(slurp(work_ / "decay.gif").compare(0, 6, "GIF89a"), 0);
  EXPECT_EQ(gif.err, "") << "Qt spoke on stderr";
}
