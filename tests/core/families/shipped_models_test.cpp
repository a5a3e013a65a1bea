// The shipped model configs and samples compiled into ropescope_models: the table
// holds every folder of resources/models and reads to exactly what the folder reads to, and the
// sample is copied to the cache byte for byte, a damaged copy rewritten.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/sample_pictures.h"
#include "ropescope/shipped_models.h"
#include "ropescope/shipped_samples.h"

namespace {

namespace fs = std::filesystem;
using namespace ropescope;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ShippedModels, EveryResourceFolderIsShippedAndReadsAsItsFolderDoes) {
  std::vector<std::string> folders;
  for (const auto& e : fs::directory_iterator(ROPESCOPE_MODELS))
    if (e.is_directory()) folders.push_back(e.path().filename().string());
  std::sort(folders.begin(), folders.end());
  ASSERT_GE(folders.size(), 8u);

  installShippedModels();
  EXPECT_EQ(shippedModelNames(), folders);
  std::vector<ModelConfig> embedded;
  for (const std::string& name : folders) embedded.push_back(readModelConfig(name));

  setModelLocator(modelFolderLocator(ROPESCOPE_MODELS));
  for (std::size_t i = 0; i < folders.size(); ++i) {
    SCOPED_TRACE(folders[i]);
    const ModelConfig fromFolder = readModelConfig(folders[i]);
    EXPECT_EQ(embedded[i], fromFolder);
    EXPECT_EQ(embedded[i].source, "shipped: " + folders[i]);
  }
  setModelLocator({});
}

TEST(ShippedModels, AnUnknownNameListsTheShippedOnes) {
  installShippedModels();
  try {
    readModelConfig("qwen9-vl");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("no shipped model of that name (shipped: ernie"),
              std::string::npos)
        << e.what();
  }
  setModelLocator({});
}

TEST(ShippedSamples, TheSampleIsCopiedToTheCacheByteForByte) {
  const fs::path cache =
      fs::temp_directory_path() / ("ropescope-shipped-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  installShippedSamples();
  const std::string original = slurp(fs::path(ROPESCOPE_SAMPLES) / "castle.png");
  ASSERT_GT(original.size(), 1000u);
  const std::string path = locateSample("castle.png");
  EXPECT_EQ(fs::path(path), cache / "ropescope" / "samples" / "castle.png");
  EXPECT_EQ(slurp(path), original);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "damaged";
  EXPECT_EQ(slurp(locateSample("castle.png")), original);
  EXPECT_EQ(locateSample("checker-none.png"), "");
  // Every picture of resources/samples is shipped, not only the start scene's.
  for (const char* name : {"castle.jpg", "checker.png", "moving.gif"})
    EXPECT_EQ(slurp(locateSample(name)), slurp(fs::path(ROPESCOPE_SAMPLES) / name)) << name;
  EXPECT_EQ(locateSample("../castle.png"), "");
  // A user's-eye report: vid:moving.gif was "file not found" where img:castle.png is the shipped
  // picture. The bare name is the shipped animation, written back as such, also when regridded.
  const LayoutFileContext ctx{cache.string(), {}};  // no moving.gif of the user's there
  const Layout l = parseLayoutSpec("t2,vid:moving.gif,t2", ctx);
  ASSERT_EQ(l.segments.size(), 3u);
  EXPECT_EQ(l.segments[1].kind, SegmentKind::Video);
  EXPECT_EQ(l.segments[1].frames, 4);
  EXPECT_EQ(l.segments[1].source.sample, "moving.gif");
  EXPECT_EQ(formatLayoutSpec(l), "t2,vid:moving.gif,t2");
  EXPECT_EQ(refreshFileSegment(l.segments[1], {}).source.sample, "moving.gif");
  // A file of the user's of that name is theirs (a still picture: a one-frame video).
  fs::copy_file(fs::path(ROPESCOPE_SAMPLES) / "checker.png", cache / "moving.gif");
  const Layout own = parseLayoutSpec("t2,vid:moving.gif,t2", ctx);
  EXPECT_EQ(own.segments[1].frames, 1);
  EXPECT_TRUE(own.segments[1].source.sample.empty());
  setSampleLocator({});
  ::unsetenv("XDG_CACHE_HOME");
  fs::remove_all(cache);
}

}  // namespace

// A family's own grid (what choosing it as a design brings) is the grid its released processor
// gives: every shipped model's patch, merge and resize rule are its family's.
TEST(ShippedModels, EachFamilysGridIsItsReleasedProcessors) {
  for (const std::string& name : shippedModelNames()) {
    SCOPED_TRACE(name);
    const ModelConfig m = readModelConfig(name);
    const ImageGridSettings family = findFamily(m.family).imageGrid();
    EXPECT_EQ(m.grid.patch, family.patch);
    EXPECT_EQ(m.grid.merge, family.merge);
    EXPECT_EQ(m.grid.rule, family.rule);
  }
}
