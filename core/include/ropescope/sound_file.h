// Sound files behind aud: layout items: a header-only probe (limits checked before any
// allocation), mono samples for the GUI's waveform and spectrogram, and how many audio tokens a
// model makes of a clip (Whisper-style features: 16 kHz, hop 160, so 100 mel frames per second).
// Read through libsndfile (WAV, FLAC, OGG/Vorbis/Opus, MP3).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ropescope {

// Largest clip accepted anywhere (seconds) and largest channel count / sample rate.
inline constexpr double kMaxSoundSeconds = 3600.0;
inline constexpr int kMaxSoundChannels = 64;
inline constexpr int kMaxSoundRate = 768000;

// The feature extractor's rate and hop (WhisperFeatureExtractor defaults in the omni processors).
inline constexpr int kFeatureRate = 16000;
inline constexpr int kFeatureHop = 160;

// What the header says. Throws InputError (field "sound") naming the file and its problem.
struct SoundInfo {
  std::string format;  // e.g. "WAV", "FLAC", "OGG", "MP3"
  int sampleRate = 0;
  int channels = 0;
  long long frames = 0;  // sample frames at sampleRate
  double seconds = 0.0;
};
SoundInfo probeSound(const std::string& path);

// Mono samples (channels averaged) at the file's rate, at most `maxFrames` frames read.
struct SoundSamples {
  int sampleRate = 0;
  std::vector<float> mono;
};
SoundSamples readSoundMono(const std::string& path, long long maxFrames);

// Mel frames the feature extractor makes of `seconds` of sound: resampled to 16 kHz, hop 160.
long long melFrames(double seconds);

// How a family turns mel frames F into audio tokens.
enum class AudioTokenRule {
  Qwen25Omni,  // L = ((F - 1) // 2 + 1 - 2) // 2 + 1
  Qwen3Omni    // L = ((F % 100 - 1) // 2 + 1 - 1) // 2 + 1 + (F // 100) * 13
};
long long audioTokens(long long melFrames, AudioTokenRule rule);

// Seconds of sound one audio token stands for under the rule (0.04 for Qwen2.5-Omni).
double secondsPerAudioToken(AudioTokenRule rule);

}  // namespace ropescope
