// The bugs the fuzzers found, as plain tests with the exact message each input must now get
// (the raw inputs are also in regressions/, replayed by fuzz_replay.*), and the in-memory entry
// points the fuzzers use checked against the file readers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ropescope/errors.h"
#include "ropescope/image_probe.h"
#include "ropescope/layout.h"
#include "ropescope/npy.h"
#include "ropescope/scene.h"
#include "ropescope/sound_file.h"

using namespace ropescope;

namespace {

std::string messageOf(auto&& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(FuzzFindings, NulByteItemIsRefusedNotAnEmptyTextRun) {
  // Found by fuzz_layout: the parser marked file items with the kind '\0', so an item starting
  // with a NUL byte was taken for a finished file item and added as text of length 0.
  const std::string spec("t5,\0t3", 6);
  // The accepted forms follow the kind (layout.cpp's form list, which grows with new kinds).
  const std::string m = messageOf([&] { parseLayoutSpec(spec); });
  EXPECT_EQ(
      m.rfind("layout item 2 \"\\x00t3\": unknown segment kind '\\x00'; expected t<N> (text), ", 0),
      0u)
      << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST(FuzzFindings, MessagesQuotingInputStayOneLine) {
  // Found by fuzz_image: a WebP chunk name holding '\n' was quoted raw in the message.
  const std::string m = messageOf([] { parseLayoutSpec("t5,\nt3\r"); });
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_NE(m.find("\"\\x0At3\\x0D\""), std::string::npos) << m;
  const InputError e(
      "a\tb\x7f"
      "c");
  EXPECT_STREQ(e.what(), "a\\x09b\\x7Fc");
  // A user's-eye report: a PNG opened as a scene file put the JSON parser's quote of its first
  // byte (0x89, not UTF-8) raw into the message. UTF-8 stays; a byte outside a well-formed
  // sequence (a lone continuation, a truncated or overlong sequence, a surrogate) is escaped.
  EXPECT_STREQ(InputError("last read: '\x89'").what(), "last read: '\\x89'");
  EXPECT_STREQ(InputError("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x99\x82").what(),
               "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x99\x82");
  EXPECT_STREQ(InputError("\xC3").what(), "\\xC3");
  EXPECT_STREQ(InputError("\xC0\xAF").what(), "\\xC0\\xAF");
  EXPECT_STREQ(InputError("\xED\xA0\x80").what(), "\\xED\\xA0\\x80");
  EXPECT_STREQ(InputError("\xE2\x86x").what(), "\\xE2\\x86x");
  const std::string png = messageOf([] { sceneFromJson("\x89PNG\r\n\x1A\n"); });
  EXPECT_EQ(png.find('\x89'), std::string::npos) << png;
}

TEST(FuzzFindings, TiffSidesOf2To32AreRefusedWithoutOverflow) {
  // Found by fuzz_image (UBSan): 4294967295 x 4294967295 overflowed the long long product of
  // the pixel-limit check. Little-endian TIFF, one directory: ImageWidth and ImageLength LONG.
  std::vector<std::uint8_t> t = {'I', 'I', 42, 0, 8, 0, 0, 0, 2, 0};
  for (std::uint16_t tag : {256, 257}) {
    const std::uint8_t e[12] = {static_cast<std::uint8_t>(tag & 0xff),
                                static_cast<std::uint8_t>(tag >> 8),
                                4,
                                0,
                                1,
                                0,
                                0,
                                0,
                                0xff,
                                0xff,
                                0xff,
                                0xff};
    t.insert(t.end(), e, e + 12);
  }
  t.insert(t.end(), {0, 0, 0, 0});
  // (2^32 - 1)^2 = 18446744065119617025, written out independently of the code's arithmetic.
  EXPECT_EQ(messageOf([&] { probeImageBytes(t.data(), t.size(), "big.tif"); }),
            "big.tif: picture too large: the TIFF header says 4294967295x4294967295 = "
            "18446744065119617025 pixels, above the limit of 67108864 (8192x8192); nothing was "
            "decoded");
}

TEST(FuzzFindings, InMemoryProbeAgreesWithTheFileProbe) {
  for (const char* name : {"castle.jpg", "castle.png", "moving.gif"}) {
    const std::string path = std::string(ROPESCOPE_SAMPLES) + "/" + name;
    const std::string bytes = readBytes(path);
    ASSERT_FALSE(bytes.empty()) << path;
    const ImageInfo a = probeImage(path);
    const ImageInfo b = probeImageBytes(bytes.data(), bytes.size(), path);
    EXPECT_EQ(a.format, b.format) << name;
    EXPECT_EQ(a.width, b.width) << name;
    EXPECT_EQ(a.height, b.height) << name;
    EXPECT_EQ(a.frames, b.frames) << name;
    EXPECT_EQ(a.fps, b.fps) << name;
  }
  EXPECT_EQ(messageOf([] { probeImageBytes("", 0, "empty.png"); }),
            "empty.png: the file is empty (0 bytes)");
}

TEST(FuzzFindings, InMemoryNpyReadsTheSeedArrays) {
  const std::string dir = std::string(ROPESCOPE_FUZZ_CORPUS) + "/npy/";
  // make_seeds.py writes 0, 1, -2.5, 3.25, 1e-3, 65504 in each float type.
  const float f32_1e3 = 1e-3f;
  const NpyArray f4 = readNpyBytes(readBytes(dir + "f4.npy"));
  EXPECT_EQ(f4.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(f4.data, (std::vector<float>{0.0f, 1.0f, -2.5f, 3.25f, f32_1e3, 65504.0f}));
  const NpyArray f8 = readNpyBytes(readBytes(dir + "f8_v2.npy"));
  EXPECT_EQ(f8.data, f4.data);
  const NpyArray f2 = readNpyBytes(readBytes(dir + "f2_be.npy"));
  EXPECT_EQ(f2.shape, (std::vector<std::size_t>{2, 1, 3}));
  EXPECT_EQ(f2.data[2], -2.5f);
  EXPECT_NEAR(f2.data[4], 1e-3, 1e-3 * 1e-3);  // nearest half to 0.001 is within 2^-11 relative
  EXPECT_EQ(f2.data[5], 65504.0f);
  EXPECT_EQ(messageOf([&] { readNpyBytes(readBytes(dir + "truncated.npy"), "q data"); }),
            "q data is truncated: the shape needs 24 data bytes, the file has 20");
}

TEST(FuzzFindings, WaveListSubChunksThatWrapAreRefusedBeforeLibsndfileLoops) {
  // Found by fuzz_sound (timeouts): libsndfile 1.2 adds a LIST sub-chunk's size to the bytes
  // read in 32 bits; 0xFFFFFFF3 wraps, its parser jumps back and loops forever. The crafted
  // files reached it past a second data chunk or by backing out of a LIST at a "data" tag;
  // those shapes are refused first, and a wrapping sub-chunk in a plain file is refused too.
  const std::string dir = std::string(ROPESCOPE_FUZZ_CORPUS) + "/../regressions/sound/";
  for (const char* name :
       {"wav-list-size-wraps.wav", "wav-list-after-backout.wav", "wav-two-data-hang.wav"}) {
    const std::string bytes = readBytes(dir + name);
    EXPECT_EQ(messageOf([&] { probeSoundBytes(bytes.data(), bytes.size(), "a.wav"); }),
              "a.wav: has two data chunks (a WAVE file has one)")
        << name;
    EXPECT_EQ(messageOf([&] { probeSound(dir + name); }),
              dir + name + ": has two data chunks (a WAVE file has one)");
  }
  const auto le32 = [](std::uint32_t v) {
    return std::string{char(v & 0xff), char(v >> 8 & 0xff), char(v >> 16 & 0xff), char(v >> 24)};
  };
  const std::string fmt = std::string("fmt ") + le32(16) + std::string("\x01\x00\x01\x00", 4) +
                          le32(16000) + le32(32000) + std::string("\x02\x00\x10\x00", 4);
  const std::string data = std::string("data") + le32(4) + std::string(4, '\0');
  const auto wave = [&](const std::string& list) {
    const std::string body =
        "WAVE" + fmt + "LIST" + le32(static_cast<std::uint32_t>(list.size())) + list + data;
    return "RIFF" + le32(static_cast<std::uint32_t>(body.size())) + body;
  };
  const std::string wraps = wave("INFO" + std::string("datO") + le32(0xFFFFFFF3u) + "abcd");
  EXPECT_EQ(messageOf([&] { probeSoundBytes(wraps.data(), wraps.size(), "w.wav"); }),
            "w.wav: has a damaged LIST chunk: sub-chunk 'datO' claims 4294967283 bytes where 4 "
            "remain");
  const std::string dataInList = wave("INFO" + std::string("data") + le32(4) + "abcd");
  EXPECT_EQ(messageOf([&] { probeSoundBytes(dataInList.data(), dataInList.size(), "d.wav"); }),
            "d.wav: has a damaged LIST chunk: a 'data' tag inside it");
  const std::string sound = wave("INFO" + std::string("INAM") + le32(4) + "abcd");
  EXPECT_EQ(messageOf([&] { probeSoundBytes(sound.data(), sound.size(), "s.wav"); }), "(no error)")
      << "a sound LIST is read";
  // RF64 files without their ds64 chunk, which hung libsndfile's RF64 reader (a LIST whose
  // size wraps, reached past data chunks this check cannot follow): refused first.
  for (const char* name : {"rf64-list-hang.wav", "rf64-list-hang2.wav"}) {
    const std::string c = readBytes(dir + name);
    EXPECT_EQ(messageOf([&] { probeSoundBytes(c.data(), c.size(), "c.wav"); }),
              "c.wav: is an RF64 file without its ds64 chunk (RF64 files start with it)")
        << name;
  }
}

TEST(FuzzFindings, InMemorySoundProbeAgreesWithTheFileProbe) {
  const std::string dir = std::string(ROPESCOPE_FUZZ_CORPUS) + "/sound/";
  for (const char* name : {"pcm16.wav", "stereo8.wav", "float.wav", "list.wav", "sound_flac.flac",
                           "sound_vorbis.ogg", "sound_mp3.mp3", "cut.wav", "many_channels.wav"}) {
    SCOPED_TRACE(name);
    const std::string bytes = readBytes(dir + name);
    const std::string fromFile = messageOf([&] { probeSound(dir + name); });
    const std::string fromMemory =
        messageOf([&] { probeSoundBytes(bytes.data(), bytes.size(), dir + name); });
    EXPECT_EQ(fromFile, fromMemory);
    if (fromFile == "(no error)") {
      const SoundInfo f = probeSound(dir + name);
      const SoundInfo m = probeSoundBytes(bytes.data(), bytes.size(), name);
      EXPECT_EQ(f.frames, m.frames);
      EXPECT_EQ(f.sampleRate, m.sampleRate);
      EXPECT_EQ(f.channels, m.channels);
      EXPECT_EQ(f.format, m.format);
    }
  }
}
