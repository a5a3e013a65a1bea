#include "model/sample_scene.h"

#include "ropescope/layout_files.h"
#include "ropescope/sample_pictures.h"
#include "ropescope/shipped_models.h"
#include "ropescope/shipped_samples.h"

namespace ropescope::ui {

namespace {

constexpr const char* kCastle = "castle.png";

// "img:castle.png" names the shipped sample and "--model qwen2.5-vl-7b" the shipped config in
// every program that links this file, as in the command line: both come from the table compiled
// in by ropescope_models (shipped_models.h, shipped_samples.h). Installed before main().
const bool kLocatorInstalled = [] {
  installShippedSamples();
  installShippedModels();
  return true;
}();

}  // namespace

QString samplePicturePath() {
  (void)kLocatorInstalled;
  return QString::fromStdString(locateSample(kCastle));
}

Scene sampleScene() {
  Scene s = defaultScene();
  const QString picture = samplePicturePath();
  if (picture.isEmpty()) return s;
  try {
    Segment castle = imageSegmentFromFile(picture.toStdString(), s.imageGrid);
    castle.source.sample = kCastle;  // shown and saved as img:castle.png, not the cache path
    s.layout.segments = {Segment::text(4), castle, Segment::text(8)};
    s.design = "circle";
    // The first text token after the picture, where a question about it starts: hard
    // embedding puts it nearest the last patches, the cone equally far from all.
    s.selectedText = 4;
  } catch (const std::exception&) {
    return defaultScene();
  }
  return s;
}

}  // namespace ropescope::ui
