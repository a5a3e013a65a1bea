// Fuzz target: the sound header probe (probeSoundBytes, the checks probeSound runs on a file,
// through libsndfile's virtual I/O). A sound that passes has a rate, channel count and length
// within the limits, its last frame decodes, and both families' token counts stay in range.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "ropescope/layout.h"
#include "ropescope/sound_file.h"

using namespace ropescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  SoundInfo info;
  try {
    info = probeSoundBytes(data, size, "fuzz-input.wav");
  } catch (const InputError& e) {
    fuzz::checkMessage(e);
    if (e.field() != "sound") fuzz::bug("refused with field " + e.field());
    return 0;
  }
  if (info.sampleRate < kMinSoundRate || info.sampleRate > kMaxSoundRate)
    fuzz::bug("accepted sample rate " + std::to_string(info.sampleRate));
  if (info.channels < 1 || info.channels > kMaxSoundChannels)
    fuzz::bug("accepted " + std::to_string(info.channels) + " channels");
  if (info.frames < 1) fuzz::bug("accepted a sound without frames");
  if (!(info.seconds > 0.0 && info.seconds <= kMaxSoundSeconds)) fuzz::bug("seconds out of range");
  if (info.format.empty() || info.format.find('\n') != std::string::npos)
    fuzz::bug("bad format name");
  for (AudioTokenRule rule : {AudioTokenRule::Qwen25Omni, AudioTokenRule::Qwen3Omni}) {
    const long long tokens = audioTokensOfSound(info.frames, info.sampleRate, rule);
    if (tokens < 0 || tokens > static_cast<long long>(kMaxLayoutTokens))
      fuzz::bug("token count " + std::to_string(tokens) + " out of range");
  }
  return 0;
}
