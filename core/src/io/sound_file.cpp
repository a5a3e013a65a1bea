// Sound files through libsndfile: the header is parsed by sf_open (libsndfile reads headers and
// chunk tables, never the samples), its numbers are checked against the limits, and the last
// sample frame is decoded so a file whose data ends before its header says is refused before
// anything the size of the sound is allocated.
#include "ropescope/sound_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>
#include <utility>

#include "ropescope/errors.h"
#include "ropescope/report.h"
#include "sndfile_api.h"
#include "wav_list_check.h"

namespace ropescope {

namespace {

[[noreturn]] void soundError(const std::string& name, const std::string& problem) {
  throw InputError(name + ": " + problem, "sound");
}

struct SndfileCloser {
  void operator()(SNDFILE* f) const { detail::sndfile().close(f); }
};
using SndfileHandle = std::unique_ptr<SNDFILE, SndfileCloser>;

// A file held in memory, read through libsndfile's virtual I/O.
struct MemoryFile {
  const unsigned char* data = nullptr;
  sf_count_t size = 0;
  sf_count_t pos = 0;
};

sf_count_t memLength(void* user) {
  return static_cast<MemoryFile*>(user)->size;
}

sf_count_t memSeek(sf_count_t offset, int whence, void* user) {
  auto* m = static_cast<MemoryFile*>(user);
  sf_count_t base = 0;
  if (whence == SEEK_CUR) base = m->pos;
  if (whence == SEEK_END) base = m->size;
  if (offset < -base || offset > m->size - base) return -1;  // no overflow: both in range
  m->pos = base + offset;
  return m->pos;
}

sf_count_t memRead(void* out, sf_count_t count, void* user) {
  auto* m = static_cast<MemoryFile*>(user);
  if (count <= 0) return 0;
  const sf_count_t n = std::min(count, m->size - m->pos);
  if (n <= 0) return 0;
  std::memcpy(out, m->data + m->pos, static_cast<std::size_t>(n));
  m->pos += n;
  return n;
}

sf_count_t memWrite(const void*, sf_count_t, void*) {
  return 0;
}

sf_count_t memTell(void* user) {
  return static_cast<MemoryFile*>(user)->pos;
}

std::string formatName(SNDFILE* f, int format) {
  switch (format & SF_FORMAT_TYPEMASK) {
    case SF_FORMAT_WAV:
    case SF_FORMAT_WAVEX:
    case SF_FORMAT_RF64:
    case SF_FORMAT_W64:
      return "WAV";
    case SF_FORMAT_FLAC:
      return "FLAC";
    case SF_FORMAT_OGG:
      return "OGG";
    case SF_FORMAT_MPEG:
      return "MP3";
    case SF_FORMAT_AIFF:
      return "AIFF";
    default:
      break;
  }
  SF_FORMAT_INFO info{};
  info.format = format & SF_FORMAT_TYPEMASK;
  if (detail::sndfile().command(f, SFC_GET_FORMAT_INFO, &info, sizeof(info)) == 0 && info.name)
    return std::string(info.name).substr(0, 40);
  return "sound";
}

// libsndfile clamps a WAV (RIFF, RF64, W64) whose data chunk claims more bytes than the file
// holds to what is there and logs "data : CLAIMED (should be HELD)". Returns that line's two
// numbers when the data is short, {0, 0} otherwise.
std::pair<long long, long long> shortDataChunk(SNDFILE* f) {
  char log[4096] = {};
  detail::sndfile().command(f, SFC_GET_LOG_INFO, log, sizeof log - 1);
  const std::string text(log);
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    long long claimed = 0, held = 0;
    if (line.rfind("data", 0) == 0 &&
        std::sscanf(line.c_str(), "data : %lld (should be %lld)", &claimed, &held) == 2 &&
        held < claimed)
      return {claimed, held};
  }
  return {0, 0};
}

// The header's numbers against the limits, then the last frame decoded (a truncated file, or
// a header that promises more frames than the data holds, fails there). Returns what the
// header says.
SoundInfo checkOpened(SNDFILE* f, const SF_INFO& sfi, const std::string& name) {
  if (sfi.samplerate < kMinSoundRate || sfi.samplerate > kMaxSoundRate)
    soundError(name, "sample rate " + std::to_string(sfi.samplerate) + " Hz is outside " +
                         std::to_string(kMinSoundRate) + ".." + std::to_string(kMaxSoundRate) +
                         " Hz");
  if (sfi.channels < 1 || sfi.channels > kMaxSoundChannels)
    soundError(name, std::to_string(sfi.channels) + " channels is outside 1.." +
                         std::to_string(kMaxSoundChannels));
  if (const auto [claimed, held] = shortDataChunk(f); claimed > 0)
    soundError(name, "is truncated: the header promises " + std::to_string(claimed) +
                         " bytes of sound data but the file holds " + std::to_string(held));
  if (sfi.frames <= 0) soundError(name, "holds no sound (0 sample frames)");
  if (sfi.frames == SF_COUNT_MAX) soundError(name, "the length of the sound is unknown");
  const double seconds = static_cast<double>(sfi.frames) / sfi.samplerate;
  if (!(seconds <= kMaxSoundSeconds))
    soundError(name, "lasts " + formatDouble(seconds) + " s; accepted up to " +
                         formatDouble(kMaxSoundSeconds) + " s");
  // One frame of at most kMaxSoundChannels samples: the only buffer the probe needs.
  float last[kMaxSoundChannels];
  if (detail::sndfile().seek(f, sfi.frames - 1, SEEK_SET) < 0 ||
      detail::sndfile().readfFloat(f, last, 1) != 1)
    soundError(name, "is truncated or damaged: the header promises " + std::to_string(sfi.frames) +
                         " sample frames but they cannot be read");
  SoundInfo info;
  info.format = formatName(f, sfi.format);
  info.sampleRate = sfi.samplerate;
  info.channels = sfi.channels;
  info.frames = sfi.frames;
  info.seconds = seconds;
  return info;
}

// Why libsndfile could not open a file. Its text for a failed format probe is often a stale
// one ("File does not exist or is not a regular file" for a file that is there), so the error
// code picks the words; other codes keep libsndfile's first line.
std::string openProblem(SNDFILE* f) {
  const std::string accepted = "is not a sound file libsndfile can read (WAV, FLAC, OGG, MP3";
  switch (detail::sndfile().error(f)) {
    case SF_ERR_UNRECOGNISED_FORMAT:
    case SF_ERR_SYSTEM:
      return accepted + "; the content is none of them)";
    case SF_ERR_MALFORMED_FILE:
      return accepted + "; its header is malformed)";
    case SF_ERR_UNSUPPORTED_ENCODING:
      return accepted + "; its encoding is not supported)";
    default:
      break;
  }
  std::string why = detail::sndfile().strerror(f);
  if (const auto nl = why.find('\n'); nl != std::string::npos) why.erase(nl);
  while (!why.empty() && (why.back() == '.' || why.back() == ' ')) why.pop_back();
  // The file was opened before libsndfile looked at it: a "does not exist" is its probe's.
  if (why.empty() || why.find("does not exist") != std::string::npos)
    return accepted + "; the content is none of them)";
  return accepted + "; " + why + ")";
}

// libsndfile's MP3 decoder (mpg123) prints "Note: Illegal Audio-MPEG-Header ..." lines on
// stderr while it probes a damaged file; ropescope says what is wrong in its one line, so
// stderr is pointed at /dev/null while a file is opened and decoded (process-wide, for that
// short time).
class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
    if (null >= 0) ::close(null);
  }
  ~QuietStderr() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

// Opens a file for reading after checking that it is a non-empty regular file.
SndfileHandle openFile(const std::string& path, SF_INFO& sfi) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) soundError(path, "file not found");
  if (fs::is_directory(status)) soundError(path, "is a folder, not a sound file");
  if (!fs::is_regular_file(status)) soundError(path, "is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) soundError(path, "cannot be read (" + ec.message() + ")");
  if (size == 0) soundError(path, "is empty");
  std::ifstream in(path, std::ios::binary);
  if (!in) soundError(path, "cannot be opened for reading");
  const ByteReader read = [&in](std::uint64_t offset, void* out, std::size_t n) -> std::size_t {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    return static_cast<std::size_t>(in.gcount());
  };
  if (const std::string p = wavListProblem(read, size); !p.empty()) soundError(path, p);
  sfi = SF_INFO{};
  SNDFILE* f = detail::sndfile().open(path.c_str(), SFM_READ, &sfi);
  if (!f) soundError(path, openProblem(nullptr));
  return SndfileHandle(f);
}

long long floorDiv(long long a, long long b) {  // Python's //, b > 0
  const long long q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

long long floorMod(long long a, long long b) {
  return a - floorDiv(a, b) * b;
}

}  // namespace

SoundInfo probeSound(const std::string& path) {
  const QuietStderr quiet;
  SF_INFO sfi{};
  SndfileHandle f = openFile(path, sfi);
  return checkOpened(f.get(), sfi, path);
}

SoundInfo probeSoundBytes(const void* data, std::size_t size, const std::string& name) {
  if (size == 0) soundError(name, "is empty");
  const auto* bytes = static_cast<const unsigned char*>(data);
  const ByteReader read = [&](std::uint64_t offset, void* out, std::size_t n) -> std::size_t {
    if (offset >= size) return 0;
    const std::size_t k = std::min<std::uint64_t>(n, size - offset);
    std::memcpy(out, bytes + offset, k);
    return k;
  };
  if (const std::string p = wavListProblem(read, size); !p.empty()) soundError(name, p);
  const QuietStderr quiet;
  MemoryFile mem{bytes, static_cast<sf_count_t>(size), 0};
  SF_VIRTUAL_IO io{memLength, memSeek, memRead, memWrite, memTell};
  SF_INFO sfi{};
  SNDFILE* raw = detail::sndfile().openVirtual(&io, SFM_READ, &sfi, &mem);
  if (!raw) soundError(name, openProblem(nullptr));
  SndfileHandle f(raw);
  return checkOpened(f.get(), sfi, name);
}

SoundSamples readSoundMono(const std::string& path, long long maxFrames) {
  const double most = kMaxSoundSeconds * kMaxSoundRate;
  if (maxFrames < 1 || static_cast<double>(maxFrames) > most)
    throw InputError("sound frames to read must be 1.." +
                         std::to_string(static_cast<long long>(most)) + " (got " +
                         std::to_string(maxFrames) + ")",
                     "sound");
  const QuietStderr quiet;
  SF_INFO sfi{};
  SndfileHandle f = openFile(path, sfi);
  const SoundInfo info = checkOpened(f.get(), sfi, path);
  if (detail::sndfile().seek(f.get(), 0, SEEK_SET) < 0)
    soundError(path, "cannot be read from its start");
  const long long want = std::min(info.frames, maxFrames);
  SoundSamples out;
  out.sampleRate = info.sampleRate;
  // Grown as frames arrive past the first 16 M: memory follows what the file really holds.
  out.mono.reserve(static_cast<std::size_t>(std::min<long long>(want, 1LL << 24)));
  constexpr sf_count_t kChunk = 4096;
  std::vector<float> buf(static_cast<std::size_t>(kChunk * info.channels));
  long long done = 0;
  while (done < want) {
    const sf_count_t n = std::min<sf_count_t>(kChunk, want - done);
    const sf_count_t got = detail::sndfile().readfFloat(f.get(), buf.data(), n);
    if (got <= 0) break;  // a stream that ends early: keep what was read
    for (sf_count_t i = 0; i < got; ++i) {
      double sum = 0.0;
      for (int c = 0; c < info.channels; ++c)
        sum += buf[static_cast<std::size_t>(i * info.channels + c)];
      out.mono.push_back(static_cast<float>(sum / info.channels));
    }
    done += got;
  }
  return out;
}

long long featureSamples(long long frames, int sampleRate) {
  if (frames <= 0 || sampleRate <= 0) return 0;
  if (sampleRate == kFeatureRate) return frames;  // librosa returns y unchanged
  // librosa.resample: ratio = float(target_sr) / orig_sr; n_samples = int(np.ceil(n * ratio)),
  // and fix_length cuts or pads the resampled signal to that. Done in doubles as Python does
  // (for 8k..96k rates and up to 2e6 frames it equals the exact ceil(frames * 16000 / rate)).
  const double ratio = static_cast<double>(kFeatureRate) / sampleRate;
  return static_cast<long long>(std::ceil(static_cast<double>(frames) * ratio));
}

long long melFramesOfSamples(long long samples, AudioTokenRule rule) {
  if (samples <= 0) return 0;
  switch (rule) {
    case AudioTokenRule::Qwen25Omni: {
      // processing_qwen2_5_omni.py, Qwen2_5OmniProcessor.__call__: the feature extractor runs
      // with padding="max_length" (forced) and the WhisperFeatureExtractor default
      // truncation=True, so every clip is cut or padded to n_samples = 480000 (30 s). The
      // sample-level attention mask (1 per real sample) is rescaled with mask[:, ::hop_length];
      // 480000 is a multiple of 160, so nothing is trimmed. feature_attention_mask.sum(-1)
      // then counts the indices 0, 160, 320, ... below min(n, 480000): ceil(n / 160).
      const long long n = std::min(samples, kWhisperWindowSamples);
      return (n + kFeatureHop - 1) / kFeatureHop;
    }
    case AudioTokenRule::Qwen3Omni: {
      // processing_qwen3_omni_moe.py, Qwen3OmniMoeProcessorKwargs: audio_kwargs padding=True
      // (to the longest clip: one clip is not padded) and truncation=False. The mask has n
      // entries; mask[:, ::160] has ceil(n / 160), and WhisperFeatureExtractor.__call__ drops
      // the last one when the padded length is not a multiple of the hop (the STFT makes
      // n // 160 + 1 frames and the last is skipped): floor(n / 160) frames.
      return samples / kFeatureHop;
    }
  }
  return 0;
}

long long melFrames(double seconds, AudioTokenRule rule) {
  if (!(seconds > 0.0)) return 0;
  return melFramesOfSamples(std::llround(std::min(seconds, kMaxSoundSeconds) * kFeatureRate), rule);
}

long long audioTokens(long long melFrames, AudioTokenRule rule) {
  if (melFrames <= 0) return 0;
  switch (rule) {
    case AudioTokenRule::Qwen25Omni: {
      // processing_qwen2_5_omni.py: input_lengths = (mask.sum(-1) - 1) // 2 + 1 (the encoder's
      // stride-2 conv), audio_lengths = (input_lengths - 2) // 2 + 1 (the 2-wide average pool).
      const long long conv = floorDiv(melFrames - 1, 2) + 1;
      return std::max(0LL, floorDiv(conv - 2, 2) + 1);
    }
    case AudioTokenRule::Qwen3Omni: {
      // processing_qwen3_omni_moe.py, _get_feat_extract_output_lengths: the encoder runs on
      // windows of 100 frames, each giving 13 tokens; the rest goes through three stride-2
      // convolutions: leave = F % 100; feat = (leave - 1) // 2 + 1;
      // out = ((feat - 1) // 2 + 1 - 1) // 2 + 1 + (F // 100) * 13.
      const long long leave = floorMod(melFrames, 100);
      const long long feat = floorDiv(leave - 1, 2) + 1;
      return floorDiv(floorDiv(feat - 1, 2) + 1 - 1, 2) + 1 + floorDiv(melFrames, 100) * 13;
    }
  }
  return 0;
}

long long audioTokensOfSound(long long frames, int sampleRate, AudioTokenRule rule) {
  return audioTokens(melFramesOfSamples(featureSamples(frames, sampleRate), rule), rule);
}

double secondsPerAudioToken(AudioTokenRule rule) {
  switch (rule) {
    case AudioTokenRule::Qwen25Omni:
      return 1.0 / 25.0;  // Qwen2_5OmniProcessorKwargs: position_id_per_seconds 25
    case AudioTokenRule::Qwen3Omni:
      return 1.0 / 13.0;  // Qwen3OmniMoeProcessorKwargs: position_id_per_seconds 13.0
  }
  return 0.0;
}

const char* audioTokenRuleName(AudioTokenRule rule) {
  switch (rule) {
    case AudioTokenRule::Qwen25Omni:
      return "qwen2.5-omni";
    case AudioTokenRule::Qwen3Omni:
      return "qwen3-omni";
  }
  return "?";
}

}  // namespace ropescope
