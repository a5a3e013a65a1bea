#include "sound/sound_source.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "ropescope/model_family.h"
#include "ropescope/sound_file.h"

namespace ropescope::ui {

double soundSecondsPerToken(const std::string& design) {
  return secondsPerAudioToken(audioTokenRuleOf(design));
}

SoundClip soundOfSegment(const Segment& segment, double secondsPerToken) {
  SoundClip clip;
  if (segment.source.kind == SourceKind::Sound) {
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
  }
  // Silence holds no samples: its length is the tokens' spans (a 262144-token a<N> would be
  // 670 MB of zeros, found by the GUI abuse test).
  clip.silentSeconds = std::max(0, segment.length) * secondsPerToken;
  return clip;
}

}  // namespace ropescope::ui
