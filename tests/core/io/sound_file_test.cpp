// Sound files (sound_file.h) and aud: layout items (layout_files.h): files of many rates,
// channel counts, lengths and formats written here with libsndfile, their token counts against
// hand-worked values and a brute-force simulation of the processors and encoders, and the
// files the probe must refuse.
#include "ropescope/sound_file.h"

#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/layout_files.h"
#include "ropescope/sample_pictures.h"
#include "ropescope/scene.h"
#include "temp_dir.h"

using namespace ropescope;
namespace fs = std::filesystem;

namespace {

constexpr AudioTokenRule kQ25 = AudioTokenRule::Qwen25Omni;
constexpr AudioTokenRule kQ3 = AudioTokenRule::Qwen3Omni;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Writes `frames` frames of a quiet sine at `rate` with `channels` channels in `format`.
void writeSound(const fs::path& path, int rate, int channels, long long frames, int format) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = channels;
  info.format = format;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr) << path << ": " << sf_strerror(nullptr);
  std::vector<float> buf(static_cast<std::size_t>(4096 * channels));
  long long done = 0;
  while (done < frames) {
    const long long n = std::min<long long>(4096, frames - done);
    for (long long i = 0; i < n; ++i)
      for (int c = 0; c < channels; ++c)
        buf[static_cast<std::size_t>(i * channels + c)] =
            0.25f * static_cast<float>(std::sin(0.01 * static_cast<double>(done + i) + c));
    ASSERT_EQ(sf_writef_float(f, buf.data(), n), n);
    done += n;
  }
  sf_close(f);
}

// --- Independent formulations -------------------------------------------------------------

// The 16 kHz sample count in exact integers: ceil(frames * 16000 / rate) (librosa.resample's
// n_samples = int(np.ceil(n * ratio)), without the floating point).
long long exactSamples(long long frames, int rate) {
  return (frames * 16000 + rate - 1) / rate;
}

// feature_attention_mask.sum(-1), simulated: the sample-level mask (1 per real sample, 0 for
// padding, cut at max_length when truncating), sliced [::160], trimmed by one when the padded
// length is not a multiple of 160 (WhisperFeatureExtractor.__call__), then summed.
long long simulatedMelFrames(long long samples, AudioTokenRule rule) {
  const long long real = rule == kQ25 ? std::min<long long>(samples, 480000) : samples;
  const long long padded = rule == kQ25 ? 480000 : samples;  // max_length vs longest (itself)
  std::vector<char> mask(static_cast<std::size_t>(padded), 0);
  for (long long i = 0; i < real; ++i) mask[static_cast<std::size_t>(i)] = 1;
  std::vector<char> rescaled;
  for (long long i = 0; i < padded; i += 160) rescaled.push_back(mask[static_cast<std::size_t>(i)]);
  if (padded % 160 != 0) rescaled.pop_back();
  long long sum = 0;
  for (char m : rescaled) sum += m;
  return sum;
}

// Output length of a 1-D convolution or pooling, by counting the windows that fit.
long long windows(long long length, int kernel, int stride, int pad) {
  long long n = 0;
  for (long long start = 0; start + kernel <= length + 2 * pad; start += stride) ++n;
  return n;
}

// Qwen2.5-Omni's audio encoder (modeling_qwen2_5_omni.py, Qwen2_5OmniAudioEncoder): conv1
// (k 3, pad 1, stride 1), conv2 (k 3, pad 1, stride 2), then avg_pooler (k 2, stride 2).
long long simulatedTokens25(long long mel) {
  return windows(windows(windows(mel, 3, 1, 1), 3, 2, 1), 2, 2, 0);
}

// Qwen3-Omni's audio encoder: the frames cut into windows of n_window * 2 = 100, each through
// three convolutions of k 3, pad 1, stride 2 (conv2d1..3 along time); the outputs are joined.
long long simulatedTokens3(long long mel) {
  long long out = 0;
  for (long long start = 0; start < mel; start += 100) {
    const long long chunk = std::min<long long>(100, mel - start);
    out += windows(windows(windows(chunk, 3, 2, 1), 3, 2, 1), 3, 2, 1);
  }
  return out;
}

long long simulatedTokens(long long mel, AudioTokenRule rule) {
  return rule == kQ25 ? simulatedTokens25(mel) : simulatedTokens3(mel);
}

}  // namespace

// --- The formulas --------------------------------------------------------------------------

// Worked by hand from processing_qwen2_5_omni.py (input = (F - 1) // 2 + 1; L = (input - 2) //
// 2 + 1) and processing_qwen3_omni_moe.py _get_feat_extract_output_lengths.
TEST(AudioTokens, HandWorkedValues) {
  // Qwen2.5-Omni: F=1: 1 -> (1-2)//2+1 = 0; F=2: 1 -> 0; F=3: 2 -> 1; F=100: 50 -> 25;
  // F=101: 51 -> 25; F=300: 150 -> 75; F=3000: 1500 -> 750.
  EXPECT_EQ(audioTokens(1, kQ25), 0);
  EXPECT_EQ(audioTokens(2, kQ25), 0);
  EXPECT_EQ(audioTokens(3, kQ25), 1);
  EXPECT_EQ(audioTokens(100, kQ25), 25);
  EXPECT_EQ(audioTokens(101, kQ25), 25);
  EXPECT_EQ(audioTokens(103, kQ25), 26);  // 52 -> 26
  EXPECT_EQ(audioTokens(300, kQ25), 75);
  EXPECT_EQ(audioTokens(3000, kQ25), 750);
  // Qwen3-Omni: F=1: leave 1, feat 1, ((0)//2+1-1)//2+1 = 1; F=9: feat 5, (2+1-1)//2+1 = 2;
  // F=50: feat 25, (12+1-1)//2+1 = 7; F=100: leave 0 -> feat 0 -> (-1+1-1)//2+1 = 0, + 13;
  // F=150: 7 + 13 = 20; F=300: 39; F=3100: 403.
  EXPECT_EQ(audioTokens(1, kQ3), 1);
  EXPECT_EQ(audioTokens(9, kQ3), 2);
  EXPECT_EQ(audioTokens(50, kQ3), 7);
  EXPECT_EQ(audioTokens(99, kQ3), 13);
  EXPECT_EQ(audioTokens(100, kQ3), 13);
  EXPECT_EQ(audioTokens(101, kQ3), 14);
  EXPECT_EQ(audioTokens(150, kQ3), 20);
  EXPECT_EQ(audioTokens(300, kQ3), 39);
  EXPECT_EQ(audioTokens(3100, kQ3), 403);
  EXPECT_EQ(audioTokens(0, kQ25), 0);
  EXPECT_EQ(audioTokens(0, kQ3), 0);
}

TEST(AudioTokens, EqualABruteForceRunOfTheEncoderLayers) {
  for (AudioTokenRule rule : {kQ25, kQ3})
    for (long long f = 1; f <= 3100; ++f)
      ASSERT_EQ(audioTokens(f, rule), simulatedTokens(f, rule))
          << audioTokenRuleName(rule) << " F=" << f;
}

TEST(MelFrames, HandWorkedValues) {
  // Qwen2.5-Omni pads to 480000 and truncates: ceil(min(n, 480000) / 160).
  EXPECT_EQ(melFramesOfSamples(1, kQ25), 1);
  EXPECT_EQ(melFramesOfSamples(160, kQ25), 1);
  EXPECT_EQ(melFramesOfSamples(161, kQ25), 2);
  EXPECT_EQ(melFramesOfSamples(16000, kQ25), 100);
  EXPECT_EQ(melFramesOfSamples(480000, kQ25), 3000);
  EXPECT_EQ(melFramesOfSamples(496000, kQ25), 3000);  // 31 s: the last second is cut
  // Qwen3-Omni pads to the clip itself and keeps it whole: floor(n / 160).
  EXPECT_EQ(melFramesOfSamples(159, kQ3), 0);
  EXPECT_EQ(melFramesOfSamples(160, kQ3), 1);
  EXPECT_EQ(melFramesOfSamples(161, kQ3), 1);
  EXPECT_EQ(melFramesOfSamples(496000, kQ3), 3100);
  // melFrames(seconds) rounds to whole samples: 3 s = 48000 samples.
  EXPECT_EQ(melFrames(3.0), 300);
  EXPECT_EQ(melFrames(3.0, kQ3), 300);
  EXPECT_EQ(melFrames(0.0), 0);
}

TEST(MelFrames, EqualASimulationOfTheAttentionMask) {
  std::vector<long long> ns;
  for (long long n = 1; n <= 2000; ++n) ns.push_back(n);
  for (long long n :
       {15999LL, 16000LL, 16001LL, 479839LL, 479840LL, 479841LL, 480000LL, 480001LL, 496123LL})
    ns.push_back(n);
  for (AudioTokenRule rule : {kQ25, kQ3})
    for (long long n : ns)
      ASSERT_EQ(melFramesOfSamples(n, rule), simulatedMelFrames(n, rule))
          << audioTokenRuleName(rule) << " n=" << n;
}

TEST(FeatureSamples, IsTheCeilingOfTheResampledLength) {
  EXPECT_EQ(featureSamples(16000, 16000), 16000);
  EXPECT_EQ(featureSamples(44100, 44100), 16000);
  EXPECT_EQ(featureSamples(12345, 22050), 8958);  // 8957.82...
  EXPECT_EQ(featureSamples(1, 48000), 1);         // 0.33 -> 1
  EXPECT_EQ(featureSamples(0, 48000), 0);
  for (int rate : {8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000})
    for (long long frames = 1; frames < 200000; frames += 997)
      ASSERT_EQ(featureSamples(frames, rate), exactSamples(frames, rate)) << rate << " " << frames;
}

TEST(SecondsPerAudioToken, FollowTheFamiliesPositionIdsPerSecond) {
  EXPECT_DOUBLE_EQ(secondsPerAudioToken(kQ25), 0.04);
  EXPECT_DOUBLE_EQ(secondsPerAudioToken(kQ3), 1.0 / 13.0);
}

// --- Real files ----------------------------------------------------------------------------

class SoundFiles : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_.path / name; }
  LayoutFileContext ctx(AudioTokenRule rule = kQ25) const {
    LayoutFileContext c;
    c.baseDir = dir_.path.string();
    c.audio = rule;
    return c;
  }
  void writeBytes(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
  }
  test::TempDir dir_;
};

struct Clip {
  int rate;
  int channels;
  long long frames;
  const char* ext;
  int format;
};

TEST_F(SoundFiles, TokenCountsOfManyRatesLengthsAndFormats) {
  const int wav = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
  const int flac = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  const int ogg = SF_FORMAT_OGG | SF_FORMAT_VORBIS;
  const int mp3 = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
  const std::vector<Clip> clips = {
      {8000, 1, 4000, "wav", wav},    // 0.5 s
      {8000, 2, 8000, "flac", flac},  // exactly 1 s
      {16000, 1, 16000, "wav", wav},  // exactly 1 s
      {16000, 1, 321, "wav", wav},    // 20 ms: the shortest with a Qwen2.5-Omni token
      {16000, 3, 12347, "ogg", ogg},  // odd length, three channels
      {22050, 2, 12345, "wav", wav},  // odd length
      {22050, 1, 22050 * 7 + 3, "flac", flac},
      {44100, 2, 44100, "wav", wav},  // exactly 1 s
      {44100, 1, 11025, "ogg", ogg},  // 0.25 s
      {44100, 6, 44100 * 2 + 17, "flac", flac},
      {48000, 2, 48000 * 31, "flac", flac},  // 31 s: Qwen2.5-Omni cuts it at 30 s
      {48000, 1, 48000 * 30, "wav", wav},    // exactly 30 s
      {48000, 1, 777, "wav", wav},
      {16000, 1, 4000, "mp3", mp3},
      {44100, 2, 44100, "mp3", mp3},
  };
  int i = 0;
  for (const Clip& c : clips) {
    const std::string name = "clip" + std::to_string(i++) + "." + c.ext;
    writeSound(path(name), c.rate, c.channels, c.frames, c.format);
    const SoundInfo info = probeSound(path(name).string());
    EXPECT_EQ(info.sampleRate, c.rate) << name;
    EXPECT_EQ(info.channels, c.channels) << name;
    EXPECT_EQ(info.frames, c.frames) << name;
    EXPECT_DOUBLE_EQ(info.seconds, static_cast<double>(c.frames) / c.rate) << name;
    for (AudioTokenRule rule : {kQ25, kQ3}) {
      const long long mel = simulatedMelFrames(exactSamples(c.frames, c.rate), rule);
      const long long tokens = simulatedTokens(mel, rule);
      if (tokens < 1) continue;
      const Segment s = soundSegmentFromFile(path(name).string(), rule);
      EXPECT_EQ(s.kind, SegmentKind::Audio);
      EXPECT_EQ(s.source.kind, SourceKind::Sound);
      EXPECT_EQ(s.source.melFrames, mel) << name << " " << audioTokenRuleName(rule);
      EXPECT_EQ(s.length, tokens) << name << " " << audioTokenRuleName(rule);
      EXPECT_EQ(s.source.sampleRate, c.rate);
      EXPECT_EQ(s.source.channels, c.channels);
    }
  }
  EXPECT_EQ(probeSound(path("clip0.wav").string()).format, "WAV");
  EXPECT_EQ(probeSound(path("clip1.flac").string()).format, "FLAC");
  EXPECT_EQ(probeSound(path("clip4.ogg").string()).format, "OGG");
  EXPECT_EQ(probeSound(path("clip13.mp3").string()).format, "MP3");
}

// The same files worked by hand (the table above): 0.5 s at 8 kHz = 8000 samples at 16 kHz,
// 50 frames: Qwen2.5-Omni 25 -> 12 tokens, Qwen3-Omni 7; 12345 frames at 22.05 kHz -> 8958
// samples: Qwen2.5-Omni ceil 56 frames -> 28 -> 14, Qwen3-Omni floor 55 -> feat 28 -> 7;
// 31 s at 48 kHz: 3000 frames -> 750 / 3100 frames -> 403.
TEST_F(SoundFiles, HandWorkedFiles) {
  writeSound(path("half.wav"), 8000, 1, 4000, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  writeSound(path("odd.wav"), 22050, 2, 12345, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  writeSound(path("long.flac"), 48000, 1, 48000 * 31, SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
  EXPECT_EQ(soundSegmentFromFile(path("half.wav").string(), kQ25).length, 12);
  EXPECT_EQ(soundSegmentFromFile(path("half.wav").string(), kQ3).length, 7);
  EXPECT_EQ(soundSegmentFromFile(path("odd.wav").string(), kQ25).length, 14);
  EXPECT_EQ(soundSegmentFromFile(path("odd.wav").string(), kQ3).length, 7);
  EXPECT_EQ(soundSegmentFromFile(path("long.flac").string(), kQ25).length, 750);
  EXPECT_EQ(soundSegmentFromFile(path("long.flac").string(), kQ3).length, 403);
  EXPECT_EQ(audioTokensOfSound(12345, 22050, kQ25), 14);
}

TEST_F(SoundFiles, TooShortForOneTokenIsRefusedWithTheShortestLength) {
  writeSound(path("blip.wav"), 16000, 1, 320, SF_FORMAT_WAV | SF_FORMAT_PCM_16);  // 2 frames
  try {
    soundSegmentFromFile(path("blip.wav").string(), kQ25);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "sound");
    EXPECT_TRUE(contains(e.what(), "blip.wav")) << e.what();
    EXPECT_TRUE(contains(e.what(), "too short")) << e.what();
    EXPECT_TRUE(contains(e.what(), "0.0200")) << e.what();  // 321 samples
  }
  EXPECT_EQ(soundSegmentFromFile(path("blip.wav").string(), kQ3).length, 1);  // 2 frames -> 1
}

TEST_F(SoundFiles, ReadMonoAveragesTheChannels) {
  SF_INFO info{};
  info.samplerate = 8000;
  info.channels = 2;
  info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
  SNDFILE* f = sf_open(path("st.wav").c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr);
  const float data[] = {0.5f, -0.25f, 1.0f, 0.0f, -1.0f, -0.5f};
  sf_writef_float(f, data, 3);
  sf_close(f);
  const SoundSamples all = readSoundMono(path("st.wav").string(), 100);
  EXPECT_EQ(all.sampleRate, 8000);
  ASSERT_EQ(all.mono.size(), 3u);
  EXPECT_FLOAT_EQ(all.mono[0], 0.125f);
  EXPECT_FLOAT_EQ(all.mono[1], 0.5f);
  EXPECT_FLOAT_EQ(all.mono[2], -0.75f);
  EXPECT_EQ(readSoundMono(path("st.wav").string(), 2).mono.size(), 2u);
  EXPECT_THROW(readSoundMono(path("st.wav").string(), 0), InputError);
}

// --- Refused files -------------------------------------------------------------------------

// A 44-byte canonical WAV header (PCM) with the given fields, followed by `data` bytes.
std::string wavHeader(std::uint32_t rate, std::uint16_t channels, std::uint32_t dataBytes,
                      std::uint16_t bits = 16) {
  std::string h;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) h += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  auto u16 = [&](std::uint16_t v) {
    h += static_cast<char>(v & 0xff);
    h += static_cast<char>(v >> 8);
  };
  h += "RIFF";
  u32(36 + dataBytes);
  h += "WAVEfmt ";
  u32(16);
  u16(1);
  u16(channels);
  u32(rate);
  u32(rate * channels * (bits / 8));
  u16(static_cast<std::uint16_t>(channels * (bits / 8)));
  u16(bits);
  h += "data";
  u32(dataBytes);
  return h;
}

TEST_F(SoundFiles, BadFilesAreRefusedInOneLineNamingTheFile) {
  writeSound(path("good.wav"), 22050, 2, 12345, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  writeSound(path("good.flac"), 22050, 2, 12345, SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
  writeSound(path("good.ogg"), 22050, 2, 12345, SF_FORMAT_OGG | SF_FORMAT_VORBIS);
  const std::string wav = test::readAll(path("good.wav"));
  const std::string flac = test::readAll(path("good.flac"));
  const std::string ogg = test::readAll(path("good.ogg"));
  writeBytes("cut.wav", wav.substr(0, wav.size() / 2));
  writeBytes("headonly.wav", wav.substr(0, 44));
  writeBytes("cut.flac", flac.substr(0, flac.size() / 2));
  writeBytes("cut.ogg", ogg.substr(0, ogg.size() / 3));
  writeBytes("garbage.wav", std::string(4000, '\x5a'));
  writeBytes("text.mp3", "this is not a sound file at all\n");
  writeBytes("empty.wav", "");
  writeBytes("rate.wav", wavHeader(2000000, 1, 8) + std::string(8, '\0'));
  writeBytes("lowrate.wav", wavHeader(10, 1, 8) + std::string(8, '\0'));
  writeBytes("huge.wav", wavHeader(16000, 2, 0xFFFFFF00u) + std::string(64, '\0'));
  // 8 kHz mono 16-bit: 3600 s is 57.6 MB of data; a header that claims 2 hours (but whose
  // data is short) is refused on the truncation before anything is read.
  writeBytes("long.wav", wavHeader(8000, 1, 8000u * 2 * 7200) + std::string(64, '\0'));
  fs::create_directory(path("folder.wav"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cut.wav", "truncated"},
      {"headonly.wav", "truncated"},
      {"cut.flac", ""},
      {"cut.ogg", ""},
      {"garbage.wav", "not a sound file"},
      {"text.mp3", ""},
      {"empty.wav", "empty"},
      {"rate.wav", ""},
      {"lowrate.wav", ""},
      {"huge.wav", "truncated"},
      {"long.wav", "truncated"},
      {"missing.wav", "not found"},
      {"folder.wav", "folder"},
  };
  for (const auto& [name, part] : cases) {
    SCOPED_TRACE(name);
    try {
      probeSound(path(name).string());
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(e.field(), "sound");
      EXPECT_TRUE(contains(m, name)) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      if (!part.empty()) EXPECT_TRUE(contains(m, part)) << m;
    }
  }
  // The same bytes from memory give the same verdicts.
  EXPECT_EQ(probeSoundBytes(wav.data(), wav.size(), "x.wav").frames, 12345);
  EXPECT_THROW(probeSoundBytes(wav.data(), wav.size() / 2, "x.wav"), InputError);
  EXPECT_THROW(probeSoundBytes(flac.data(), flac.size() / 2, "x.flac"), InputError);
  EXPECT_THROW(probeSoundBytes(wav.data(), 0, "x.wav"), InputError);
}

TEST_F(SoundFiles, LimitsOnRateChannelsAndLength) {
  // The limits, with whole headers: 65 channels, 3601 s (8-bit mono at 1 kHz keeps it small).
  writeBytes("ch65.wav", wavHeader(16000, 65, 65 * 2 * 4) + std::string(65 * 2 * 4, '\0'));
  const std::uint32_t longBytes = 1000u * 3601;
  writeBytes("3601s.wav", wavHeader(1000, 1, longBytes, 8) + std::string(longBytes, '\x80'));
  const std::uint32_t okBytes = 1000u * 3600;
  writeBytes("3600s.wav", wavHeader(1000, 1, okBytes, 8) + std::string(okBytes, '\x80'));
  for (const char* name : {"ch65.wav", "3601s.wav"}) {
    SCOPED_TRACE(name);
    try {
      probeSound(path(name).string());
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_TRUE(contains(m, name)) << m;
      EXPECT_TRUE(contains(m, "1..64") || contains(m, "up to 3600 s")) << m;
    }
  }
  EXPECT_DOUBLE_EQ(probeSound(path("3600s.wav").string()).seconds, 3600.0);
}

// libsndfile 1.2 loops forever on a LIST sub-chunk whose size wraps its 32-bit sum; the probe
// refuses those before libsndfile sees them, and keeps files whose LIST chunks are sound.
TEST_F(SoundFiles, DamagedListChunksAreRefusedAndSoundOnesKept) {
  SF_INFO info{};
  info.samplerate = 16000;
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
  SNDFILE* f = sf_open(path("tagged.wav").c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr);
  sf_set_string(f, SF_STR_TITLE, "a title of odd length");
  sf_set_string(f, SF_STR_ARTIST, "ropescope");
  std::vector<float> silence(1600, 0.0f);
  sf_writef_float(f, silence.data(), 1600);
  sf_close(f);
  const std::string tagged = test::readAll(path("tagged.wav"));
  ASSERT_NE(tagged.find("LIST"), std::string::npos);
  EXPECT_EQ(probeSound(path("tagged.wav").string()).frames, 1600);
  // LIST (size 16): INFO, then "datO" claiming 0xFFFFFFF3 bytes.
  std::string list = "LIST";
  list += std::string("\x10\0\0\0", 4) + "INFO" + "datO" + std::string("\xf3\xff\xff\xff", 4);
  list += std::string(4, '\0');
  const std::string bad = wavHeader(16000, 1, 8) + std::string(8, '\0') + list;
  std::string fixed = bad;
  fixed[4] = static_cast<char>(fixed[4] + static_cast<char>(list.size()));  // RIFF size
  writeBytes("wraps.wav", fixed);
  try {
    probeSound(path("wraps.wav").string());
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "wraps.wav")) << e.what();
    EXPECT_TRUE(contains(e.what(), "LIST")) << e.what();
    EXPECT_TRUE(contains(e.what(), "4294967283")) << e.what();
  }
  EXPECT_THROW(probeSoundBytes(fixed.data(), fixed.size(), "m.wav"), InputError);
}

// --- Layout items --------------------------------------------------------------------------

TEST_F(SoundFiles, AudItemsParseAndRoundTrip) {
  writeSound(path("clip.wav"), 44100, 2, 44100 * 3 / 2, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  fs::create_directory(path("sub"));
  writeSound(path("sub/b c.flac"), 16000, 1, 16000, SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
  const Layout l = parseLayoutSpec("t3,aud:clip.wav,t2,aud: sub/b c.flac", ctx());
  ASSERT_EQ(l.segments.size(), 4u);
  // 1.5 s -> 24000 samples -> 150 frames -> 75 -> 37 tokens; 1 s -> 25.
  EXPECT_EQ(l.segments[1].length, 37);
  EXPECT_EQ(l.segments[3].length, 25);
  EXPECT_EQ(l.audioCount(), 62u);
  EXPECT_EQ(l.segments[1].source.path, (path("clip.wav")).lexically_normal().string());
  const std::string spec = formatLayoutSpec(l, dir_.path.string());
  EXPECT_EQ(spec, "t3,aud:clip.wav,t2,aud:sub/b c.flac");
  EXPECT_EQ(parseLayoutSpec(spec, ctx()), l);
  // Under Qwen3-Omni's rule: 150 frames -> 7 + 13 = 20 tokens; 100 frames -> 13.
  const Layout q3 = parseLayoutSpec(spec, ctx(kQ3));
  EXPECT_EQ(q3.segments[1].length, 20);
  EXPECT_EQ(q3.segments[3].length, 13);
  // Switching the rule on the parsed layout gives the same as parsing under it.
  Layout switched = l;
  setAudioTokenRule(switched, kQ3);
  EXPECT_EQ(switched, q3);
  setAudioTokenRule(switched, kQ25);
  EXPECT_EQ(switched, l);
  // A refresh keeps the rule the segment was made with.
  EXPECT_EQ(refreshFileSegment(q3.segments[1], {}), q3.segments[1]);
  Layout regridded = q3;
  regridLayout(regridded, {});
  EXPECT_EQ(regridded, q3);
}

// FAMILY:aud:CLIP.wav: an omni family's sound file between its audio bos/eos tokens, counted by
// that family's rule whatever the context's, as FAMILY:a<N> is written by hand.
TEST_F(SoundFiles, OmniFamilyAudItemsBringTheirSpecialTokensAndRule) {
  writeSound(path("clip.wav"), 44100, 2, 44100 * 3 / 2, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  const Segment special = Segment::text(1, TextRole::Special);
  for (const auto& [family, tokens] :
       std::vector<std::pair<std::string, int>>{{"qwen2.5-omni", 37}, {"qwen3-omni", 20}}) {
    SCOPED_TRACE(family);
    const Layout l = parseLayoutSpec("t2," + family + ":aud:clip.wav,t1", ctx(kQ25));
    ASSERT_EQ(l.segments.size(), 5u);
    EXPECT_EQ(l.segments[1], special);
    EXPECT_EQ(l.segments[2].length, tokens);
    EXPECT_EQ(l.segments[2].source.path, path("clip.wav").lexically_normal().string());
    EXPECT_EQ(l.segments[3], special);
    // The same tokens as the hand-written form around a plain aud: item under the family's rule.
    const Layout byHand =
        parseLayoutSpec("t2,s1,aud:clip.wav,s1,t1", ctx(family == "qwen3-omni" ? kQ3 : kQ25));
    EXPECT_EQ(l, byHand);
  }
  // Only the omni families take a sound, and only aud: follows a family.
  for (const std::string bad : {"qwen2.5-vl:aud:clip.wav", "qwen3-omni:img:clip.wav"}) {
    try {
      parseLayoutSpec("t1," + bad, ctx());
      FAIL() << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "layout");
      EXPECT_TRUE(contains(e.what(), "FAMILY:aud:CLIP.wav")) << e.what();
      EXPECT_TRUE(contains(e.what(), "item 2")) << e.what();
    }
  }
  // A missing file under a family is a kept problem, like a plain aud: item.
  std::vector<LayoutProblem> problems;
  const Layout kept = parseLayoutSpecKeeping("t1,qwen3-omni:aud:gone.wav", ctx(), problems);
  EXPECT_EQ(kept.segments.size(), 1u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems[0].message, "gone.wav")) << problems[0].message;
}

TEST_F(SoundFiles, BadAudItemsAreLayoutErrorsOrKeptProblems) {
  writeSound(path("good.wav"), 16000, 1, 16000, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  writeBytes("bad.wav", std::string(100, 'x'));
  try {
    parseLayoutSpec("t1,aud:bad.wav", ctx());
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "layout");
    EXPECT_TRUE(contains(e.what(), "bad.wav")) << e.what();
    EXPECT_TRUE(contains(e.what(), "item 2")) << e.what();
  }
  EXPECT_THROW(parseLayoutSpec("t1,aud:", ctx()), InputError);
  std::vector<LayoutProblem> problems;
  const Layout kept =
      parseLayoutSpecKeeping("t1,aud:bad.wav,aud:good.wav,aud:gone.ogg", ctx(), problems);
  ASSERT_EQ(kept.segments.size(), 2u);
  EXPECT_EQ(kept.segments[1].length, 25);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].item, 2u);
  EXPECT_EQ(problems[0].text, "aud:bad.wav");
  EXPECT_TRUE(contains(problems[0].message, "bad.wav"));
  EXPECT_EQ(problems[1].item, 4u);
  EXPECT_TRUE(contains(problems[1].message, "not found")) << problems[1].message;
}

// A scene file keeps its aud: items through the layout spec, relative to the scene's folder.
TEST_F(SoundFiles, SceneFilesKeepAudItems) {
  fs::create_directory(path("clips"));
  writeSound(path("clips/voice.flac"), 22050, 1, 22050 * 2, SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
  Scene scene = defaultScene();
  scene.layout = parseLayoutSpec("t2,aud:clips/voice.flac,t1", ctx());
  ASSERT_EQ(scene.layout.segments[1].length, 50);  // 2 s: 200 frames -> 100 -> 50
  const std::string file = path("scene.json").string();
  saveSceneFile(scene, file);
  EXPECT_TRUE(contains(test::readAll(file), "aud:clips/voice.flac")) << test::readAll(file);
  const Scene back = loadSceneFile(file);
  EXPECT_EQ(back.layout, scene.layout);
  // The folder moved elsewhere with its scene: the relative path still finds the sound.
  const fs::path moved = dir_.path / "moved";
  fs::create_directory(moved);
  fs::rename(path("clips"), moved / "clips");
  fs::rename(file, moved / "scene.json");
  const Scene there = loadSceneFile((moved / "scene.json").string());
  EXPECT_EQ(there.layout.segments[1].source.path, (moved / "clips/voice.flac").string());
  EXPECT_EQ(there.layout.segments[1].length, 50);
}

// The audio rule is core's, applied where a design is set (setDesign, and pickDesign and
// applyModel through it), not by each front end afterwards: 1.5 s is 37 tokens under
// Qwen2.5-Omni's rule and 20 under Qwen3-Omni's (worked by hand in AudItemsParseAndRoundTrip).
TEST_F(SoundFiles, SettingTheDesignCountsSoundsByItsRule) {
  writeSound(path("clip.wav"), 44100, 2, 44100 * 3 / 2, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  Scene scene = defaultScene();
  scene.layout = parseLayoutSpec("t3,aud:clip.wav,t2", layoutContextOf(scene, dir_.path.string()));
  ASSERT_EQ(scene.layout.segments[1].length, 37);
  setDesign(scene, "qwen3-omni");
  EXPECT_EQ(scene.layout.segments[1].length, 20);
  EXPECT_EQ(scene.layout.audioCount(), 20u);
  // The design comparison reads every design over the scene's own tokens.
  EXPECT_EQ(sceneUnderDesign(scene, "mrope").layout, scene.layout);
  pickDesign(scene, "qwen2.5-omni");
  EXPECT_EQ(scene.layout.segments[1].length, 37);
  pickDesign(scene, "qwen3-omni");
  EXPECT_EQ(scene.layout.segments[1].length, 20);
  pickDesign(scene, "hard");  // a research design counts as Qwen2.5-Omni does
  EXPECT_EQ(scene.layout.segments[1].length, 37);
  // The scene file sets the design through the same rule: the counts read back.
  Scene omni = scene;
  setDesign(omni, "qwen3-omni");
  const std::string file = path("omni.json").string();
  saveSceneFile(omni, file);
  EXPECT_EQ(loadSceneFile(file).layout.segments[1].length, 20);
}

// The project's sample sound, by name from any folder (like img:castle.png).
TEST(SampleSound, ChirpGivesTheTokensTheReadmePromises) {
  setSampleLocator(sampleFolderLocator(ROPESCOPE_SAMPLES));
  test::TempDir elsewhere;
  LayoutFileContext c;
  c.baseDir = elsewhere.path.string();
  const Layout l = parseLayoutSpec("t3,aud:chirp.wav,t2", c);
  ASSERT_EQ(l.segments.size(), 3u);
  const Segment& s = l.segments[1];
  EXPECT_EQ(s.source.sample, "chirp.wav");
  EXPECT_EQ(s.source.sampleRate, 16000);
  EXPECT_EQ(s.source.channels, 1);
  EXPECT_DOUBLE_EQ(s.source.seconds, 3.0);
  EXPECT_EQ(s.source.melFrames, 300);
  EXPECT_EQ(s.length, 75);
  EXPECT_EQ(formatLayoutSpec(l, c.baseDir), "t3,aud:chirp.wav,t2");
  c.audio = kQ3;
  EXPECT_EQ(parseLayoutSpec("aud:chirp.wav", c).segments[0].length, 39);
  setSampleLocator({});
}
