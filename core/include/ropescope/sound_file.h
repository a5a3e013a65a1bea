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
// Smallest sample rate accepted (telephone-grade sound is 8000; anything lower is a broken header).
inline constexpr int kMinSoundRate = 1000;

// The feature extractor's rate and hop (WhisperFeatureExtractor defaults in the omni processors).
inline constexpr int kFeatureRate = 16000;
inline constexpr int kFeatureHop = 160;
// Qwen2.5-Omni's processor pads every clip to the extractor's 30 s window and truncates longer
// ones (WhisperFeatureExtractor n_samples = chunk_length 30 * 16000).
inline constexpr long long kWhisperWindowSamples = 30LL * kFeatureRate;

// What the header says. Throws InputError (field "sound") naming the file and its problem.
struct SoundInfo {
  std::string format;  // e.g. "WAV", "FLAC", "OGG", "MP3"
  int sampleRate = 0;
  int channels = 0;
  long long frames = 0;  // sample frames at sampleRate
  double seconds = 0.0;
};
SoundInfo probeSound(const std::string& path);
// The same checks on a file held in memory; `name` stands for the file in messages.
SoundInfo probeSoundBytes(const void* data, std::size_t size, const std::string& name);

// Mono samples (channels averaged) at the file's rate, at most `maxFrames` frames read
// (0 < maxFrames <= kMaxSoundSeconds * kMaxSoundRate); the caller bounds the memory with it
// (4 bytes a frame). Throws what probeSound throws.
struct SoundSamples {
  int sampleRate = 0;
  std::vector<float> mono;
};
SoundSamples readSoundMono(const std::string& path, long long maxFrames);

// How a family turns mel frames F into audio tokens.
enum class AudioTokenRule {
  Qwen25Omni,  // L = ((F - 1) // 2 + 1 - 2) // 2 + 1
  Qwen3Omni    // f = (F % 100 - 1) // 2 + 1; L = ((f - 1) // 2 + 1 - 1) // 2 + 1 + (F // 100) * 13
};

// Samples `frames` sample frames at `sampleRate` become at 16 kHz, as librosa.load(sr=16000)
// resamples them (the omni processors' audio loading): ceil(frames * (16000 / rate)) in doubles.
long long featureSamples(long long frames, int sampleRate);

// The mel frames the family's processor counts for `samples` samples at 16 kHz
// (feature_attention_mask.sum(-1)); the rule and its source are in sound_file.cpp.
long long melFramesOfSamples(long long samples, AudioTokenRule rule);

// melFramesOfSamples of `seconds` of sound (rounded to whole 16 kHz samples).
long long melFrames(double seconds, AudioTokenRule rule = AudioTokenRule::Qwen25Omni);

// The family's token count for F mel frames (0 when F is too short for one token).
long long audioTokens(long long melFrames, AudioTokenRule rule);

// The tokens a sound of `frames` frames at `sampleRate` gives under the rule (the two steps above).
long long audioTokensOfSound(long long frames, int sampleRate, AudioTokenRule rule);

// Seconds of sound one audio token stands for under the rule: 0.04 for Qwen2.5-Omni
// (position_id_per_seconds 25), 1/13 for Qwen3-Omni (13 per second).
double secondsPerAudioToken(AudioTokenRule rule);

// The rule's name for messages: "qwen2.5-omni", "qwen3-omni".
const char* audioTokenRuleName(AudioTokenRule rule);

}  // namespace ropescope
