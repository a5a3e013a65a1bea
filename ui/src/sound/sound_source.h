// The samples the Sound tab shows for an audio segment: the mono samples of its sound file
// (aud:PATH, read by core's readSoundMono), or synthetic silence as long as its tokens for a plain
// a<N> (then only the token spans carry information).
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "ropescope/layout.h"

namespace ropescope::ui {

// The longest stretch of a sound file the tab reads (seconds); a longer file shows its start.
inline constexpr double kSoundViewSeconds = 600.0;

struct SoundClip {
  int sampleRate = 16000;
  std::vector<float> mono;
  bool silent = true;          // synthetic: no file behind the segment (or it could not be read)
  double silentSeconds = 0.0;  // silent: how long the tokens last (no samples are kept)
  QString problem;             // why the file could not be read; empty otherwise
  double seconds() const {
    if (silent) return silentSeconds;
    return sampleRate > 0 ? static_cast<double>(mono.size()) / sampleRate : 0.0;
  }
};

// Seconds of sound one audio token stands for under `design` (sound_file.h's
// secondsPerAudioToken of the design's audio rule, model_family.h).
double soundSecondsPerToken(const std::string& design);

// `segment` must be an audio segment; a file that cannot be read gives silence and a problem.
// Silence keeps no samples (mono is empty).
SoundClip soundOfSegment(const Segment& segment, double secondsPerToken);

}  // namespace ropescope::ui
