// Animations for teaching: sweep a relative distance (the phasor picture) or a Circle-RoPE
// parameter (α, R, β: the 3-D position view) over N frames and write an animated GIF or a folder
// of PNGs. One-line specs such as "distance:0:256", "distance_w:0:64", "alpha:0:1", "radius:2:20",
// "dff:0:1" (beta and R are accepted for dff and radius).
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <string>

#include "ropescope/scene.h"

namespace ropescope::ui {

struct AnimationSpec {
  std::string parameter = "distance";  // distance, alpha, radius or dff (the design's keys)
  std::string direction = "h";         // distance only: t, h, w or thw
  double from = 0.0;
  double to = 64.0;
  int frames = 32;

  bool sweepsDistance() const { return parameter == "distance"; }
  // The parameter's value at frame i of frames (ends included); a distance is rounded to whole
  // positions (the ends are whole), so every frame is a displacement the phasor figure draws.
  double valueAt(int frame) const;
  // "distance along h", "α (alpha)", ...
  std::string label() const;
};

// The values a sweep of `parameter` ("distance", "alpha", "radius", "dff") accepts at its ends:
// distances in the phasor figure's 0..figure::kPhasorMaxDistance (a frame is a phasor figure,
// which render --view phasor draws alone), a Circle-RoPE parameter its own range (its
// ParameterSpec). What parseAnimationSpec checks and the dialog's boxes offer.
struct AnimationRange {
  double lo, hi;
  bool loExclusive = false;  // (lo, hi]: R > 0
};
AnimationRange animationRange(const std::string& parameter);

constexpr int kMinAnimationFrames = 2;
constexpr int kMaxAnimationFrames = 1000;
constexpr int kMinAnimationSide = 64;
constexpr int kMaxAnimationSide = 4096;

// Parses "PARAM:FROM:TO". Throws InputError (field "animate") naming the accepted form and the
// parameter's range. frames is checked separately by checkAnimationFrames().
AnimationSpec parseAnimationSpec(const std::string& text);
void checkAnimationFrames(int frames);
void checkAnimationSize(QSize size);
// The accepted spec forms, for help texts and error messages.
std::string animationSpecHelp();

struct AnimationResult {
  bool ok = false;
  bool cancelled = false;
  QString error;
  int framesWritten = 0;
};

// Called after each frame with (done, total); return false to cancel.
using AnimationProgress = std::function<bool(int, int)>;

// One frame of the animation (for previews and tests). Circle parameters need a GL-capable
// platform (a display or xvfb-run); distance frames are painted without one.
QImage renderAnimationFrame(const Scene& scene, const AnimationSpec& spec, int frame, QSize size);

// Writes every frame: a GIF when out ends in .gif (delayMs per frame, looping), else PNGs
// frame_0001.png ... into the folder out (created when missing).
AnimationResult renderAnimation(const Scene& scene, const AnimationSpec& spec, QSize size,
                                const QString& out, const AnimationProgress& progress = {},
                                int delayMs = 80);

}  // namespace ropescope::ui
