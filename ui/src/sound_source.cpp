#include "sound_source.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "ropescope/sound_file.h"

namespace ropescope::ui {

// ROPESCOPE_HAVE_SOUND_READER: core's sound_file.cpp (helper "sound") is in the tree; until it
// is, aud: segments show silence and the rule's seconds per token come from its comment.
double soundSecondsPerToken() {
#ifdef ROPESCOPE_HAVE_SOUND_READER
  return secondsPerAudioToken(AudioTokenRule::Qwen25Omni);
#else
  return 0.04;  // sound_file.h: 0.04 for Qwen2.5-Omni
#endif
}

SoundClip soundOfSegment(const Segment& segment, double secondsPerToken) {
  SoundClip clip;
  if (segment.source.kind == SourceKind::Sound) {
#ifdef ROPESCOPE_HAVE_SOUND_READER
    try {
      const SoundInfo info = probeSound(segment.source.path);
      const auto frames = static_cast<long long>(std::ceil(kSoundViewSeconds * info.sampleRate));
      SoundSamples s = readSoundMono(segment.source.path, frames);
      clip.sampleRate = s.sampleRate;
      clip.mono = std::move(s.mono);
      clip.silent = false;
      return clip;
    } catch (const std::exception& e) {
      clip.problem = QString::fromUtf8(e.what());
    }
#else
    clip.problem = QStringLiteral("this build reads no sound files");
#endif
  }
  const double seconds = std::max(0, segment.length) * secondsPerToken;
  clip.mono.assign(static_cast<std::size_t>(std::lround(seconds * clip.sampleRate)), 0.0f);
  return clip;
}

}  // namespace ropescope::ui
