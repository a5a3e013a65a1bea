// Header probing: sizes read from files written byte by byte here (so every field is known
// independently of the code under test), and every kind of bad file the issue lists: empty,
// truncated at every byte, wrong extension, not a picture, unsupported formats, and headers
// claiming 30000 x 30000 pixels, which must be refused without the memory to decode them.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/image_probe.h"

using namespace ropescope;
namespace fs = std::filesystem;

namespace {

using Bytes = std::string;

void be16(Bytes& b, std::uint32_t v) {
  b += static_cast<char>(v >> 8 & 255);
  b += static_cast<char>(v & 255);
}
void be32(Bytes& b, std::uint32_t v) {
  be16(b, v >> 16);
  be16(b, v & 0xFFFF);
}
void le16(Bytes& b, std::uint32_t v) {
  b += static_cast<char>(v & 255);
  b += static_cast<char>(v >> 8 & 255);
}
void le24(Bytes& b, std::uint32_t v) {
  le16(b, v & 0xFFFF);
  b += static_cast<char>(v >> 16 & 255);
}
void le32(Bytes& b, std::uint32_t v) {
  le16(b, v & 0xFFFF);
  le16(b, v >> 16);
}

Bytes pngChunk(const char* type, const Bytes& data) {
  Bytes b;
  be32(b, static_cast<std::uint32_t>(data.size()));
  b += type;
  b += data;
  b += Bytes(4, '\0');  // CRC: not checked by a header probe
  return b;
}

Bytes png(std::uint32_t w, std::uint32_t h) {
  Bytes b("\x89PNG\r\n\x1a\n", 8), ihdr;
  be32(ihdr, w);
  be32(ihdr, h);
  ihdr += Bytes("\x08\x02\x00\x00\x00", 5);
  b += pngChunk("IHDR", ihdr);
  b += pngChunk("tEXt", "Comment\0made by a test");
  b += pngChunk("IDAT", Bytes("\x78\x9c\x01\x02\x03\xff\xd9", 7));
  b += pngChunk("IEND", "");
  return b;
}

Bytes jpegSegment(std::uint8_t marker, const Bytes& body) {
  Bytes b("\xFF", 1);
  b += static_cast<char>(marker);
  be16(b, static_cast<std::uint32_t>(body.size() + 2));
  return b + body;
}

// A JPEG skeleton: SOI, APP0, an APP2 whose payload holds fake SOF/EOI bytes (a parser that
// does not skip APPn by its length trips over them), optional EXIF orientation, tables, the
// frame header, two scans with stuffed bytes and a restart marker, EOI.
Bytes jpeg(std::uint32_t w, std::uint32_t h, int orientation = 0, std::uint8_t sof = 0xC0) {
  Bytes b("\xFF\xD8", 2);
  b += jpegSegment(0xE0, Bytes("JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00", 14));
  b += jpegSegment(0xE2, Bytes("\xFF\xD9\xFF\xC0\x00\x11\x08\x00\x10\x00\x10", 11));
  if (orientation) {
    Bytes exif("Exif\0\0MM\0*", 10);
    be32(exif, 8);
    be16(exif, 1);
    be16(exif, 274);
    be16(exif, 3);
    be32(exif, 1);
    be16(exif, static_cast<std::uint32_t>(orientation));
    be16(exif, 0);
    be32(exif, 0);
    b += jpegSegment(0xE1, exif);
  }
  b += jpegSegment(0xDB, Bytes(65, '\x01'));
  Bytes frame("\x08", 1);
  be16(frame, h);
  be16(frame, w);
  frame += Bytes("\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01", 10);
  b += jpegSegment(sof, frame);
  b += jpegSegment(0xC4, Bytes(20, '\x02'));
  b += jpegSegment(0xDA, Bytes("\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00", 10));
  b += Bytes("\x12\x34\xFF\x00\x56\xFF\xD0\x78\x9a", 9);
  b += jpegSegment(0xC4, Bytes(20, '\x03'));  // progressive: tables between scans
  b += jpegSegment(0xDA, Bytes("\x01\x01\x00\x00\x3f\x00", 6));
  b += Bytes("\xab\xFF\x00\xcd", 4);
  b += Bytes("\xFF\xD9", 2);
  return b;
}

Bytes bmp(std::int32_t w, std::int32_t h, bool core = false, bool pixels = true) {
  const std::uint32_t dib = core ? 12 : 40, bpp = 24;
  const std::uint64_t stride = ((static_cast<std::uint64_t>(w < 0 ? -w : w) * bpp + 31) / 32) * 4;
  const std::uint64_t rows = static_cast<std::uint64_t>(h < 0 ? -h : h);
  Bytes b("BM", 2);
  le32(b, static_cast<std::uint32_t>(14 + dib + (pixels ? stride * rows : 0)));
  le32(b, 0);
  le32(b, 14 + dib);
  le32(b, dib);
  if (core) {
    le16(b, static_cast<std::uint32_t>(w));
    le16(b, static_cast<std::uint32_t>(h));
    le16(b, 1);
    le16(b, bpp);
  } else {
    le32(b, static_cast<std::uint32_t>(w));
    le32(b, static_cast<std::uint32_t>(h));
    le16(b, 1);
    le16(b, bpp);
    b += Bytes(24, '\0');  // compression 0 (BI_RGB), sizes, resolution, palette counts
  }
  b += pixels ? Bytes(stride * rows, '\x7f') : Bytes(4, '\x7f');
  return b;
}

Bytes riff(const Bytes& chunks) {
  Bytes b("RIFF", 4);
  le32(b, static_cast<std::uint32_t>(chunks.size() + 4));
  return b + "WEBP" + chunks;
}
Bytes webpChunk(const char* type, const Bytes& data) {
  Bytes b(type, 4);
  le32(b, static_cast<std::uint32_t>(data.size()));
  b += data;
  if (data.size() % 2) b += '\0';
  return b;
}
Bytes webpLossy(std::uint32_t w, std::uint32_t h) {
  Bytes d("\x50\x02\x00\x9d\x01\x2a", 6);
  le16(d, w);
  le16(d, h);
  d += Bytes(12, '\x11');
  return riff(webpChunk("VP8 ", d));
}
Bytes webpLossless(std::uint32_t w, std::uint32_t h) {
  Bytes d("\x2f", 1);
  le32(d, (w - 1) | (h - 1) << 14);
  d += Bytes(9, '\x22');
  return riff(webpChunk("VP8L", d));
}
Bytes webpExtended(std::uint32_t w, std::uint32_t h, int frames = 0, std::uint32_t ms = 100) {
  Bytes x(1, frames ? '\x02' : '\0');
  x += Bytes(3, '\0');
  le24(x, w - 1);
  le24(x, h - 1);
  Bytes c = webpChunk("VP8X", x);
  if (frames) {
    c += webpChunk("ANIM", Bytes(6, '\0'));
    for (int i = 0; i < frames; ++i) {
      Bytes f;
      le24(f, 0);
      le24(f, 0);
      le24(f, w - 1);
      le24(f, h - 1);
      le24(f, ms);
      f += '\0';
      f += webpLossless(w, h).substr(12);  // the frame's own bitstream chunk
      c += webpChunk("ANMF", f);
    }
  } else {
    c += webpLossless(w, h).substr(12);
  }
  return riff(c);
}

Bytes gif(std::uint32_t w, std::uint32_t h, int frames = 1, std::uint32_t delayCs = 10) {
  Bytes b("GIF89a", 6);
  le16(b, w);
  le16(b, h);
  b += Bytes("\x80\x00\x00", 3);  // global colour table of 2 entries
  b += Bytes("\x00\x00\x00\xff\xff\xff", 6);
  b += Bytes("\x21\xfe\x03wow\x00", 7);  // comment extension, skipped
  for (int i = 0; i < frames; ++i) {
    b += Bytes("\x21\xf9\x04\x00", 4);
    le16(b, delayCs);
    b += Bytes("\x00\x00", 2);
    b += ',';
    le16(b, 0);
    le16(b, 0);
    le16(b, w);
    le16(b, h);
    b += Bytes("\x00\x02\x03\x84\x8f\x3b\x00", 7);  // code size, one sub-block, terminator
  }
  b += ';';
  return b;
}

Bytes tiff(std::uint32_t w, std::uint32_t h, bool bigEndian = false, int orientation = 0) {
  Bytes b;
  auto u16 = [&](std::uint32_t v) { bigEndian ? be16(b, v) : le16(b, v); };
  auto u32 = [&](std::uint32_t v) { bigEndian ? be32(b, v) : le32(b, v); };
  b += bigEndian ? Bytes("MM\0*", 4) : Bytes("II*\0", 4);
  u32(8);
  const int entries = orientation ? 5 : 4;
  u16(static_cast<std::uint32_t>(entries));
  const std::uint32_t dataAt = 8 + 2 + 12 * entries + 4, dataBytes = 16;
  u16(256), u16(3), u32(1), u16(w), u16(0);  // ImageWidth as SHORT
  u16(257), u16(4), u32(1), u32(h);          // ImageLength as LONG
  u16(273), u16(4), u32(1), u32(dataAt);
  if (orientation) u16(274), u16(3), u32(1), u16(static_cast<std::uint32_t>(orientation)), u16(0);
  u16(279), u16(4), u32(1), u32(dataBytes);
  u32(0);
  b += Bytes(dataBytes, '\x55');
  return b;
}

const fs::path& dir() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("ropescope-probe-" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

std::string write(const std::string& name, const Bytes& bytes) {
  const fs::path p = dir() / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

// The InputError message of probing `path`, or "" when it was accepted.
std::string refusal(const std::string& path) {
  try {
    probeImage(path);
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "image");
    return e.what();
  }
  return {};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

struct Sample {
  const char* name;
  Bytes bytes;
  ImageFormat format;
  int w, h;
};

std::vector<Sample> validSamples() {
  return {{"p.png", png(333, 77), ImageFormat::Png, 333, 77},
          {"j.jpg", jpeg(641, 479), ImageFormat::Jpeg, 641, 479},
          {"b.bmp", bmp(31, 29), ImageFormat::Bmp, 31, 29},
          {"td.bmp", bmp(40, -30), ImageFormat::Bmp, 40, 30},
          {"core.bmp", bmp(50, 28, true), ImageFormat::Bmp, 50, 28},
          {"lossy.webp", webpLossy(1000, 600), ImageFormat::WebP, 1000, 600},
          {"lossless.webp", webpLossless(16383, 2), ImageFormat::WebP, 16383, 2},
          {"ext.webp", webpExtended(5000, 3000), ImageFormat::WebP, 5000, 3000},
          {"g.gif", gif(120, 90), ImageFormat::Gif, 120, 90},
          {"le.tif", tiff(300, 200), ImageFormat::Tiff, 300, 200},
          {"be.tiff", tiff(200, 300, true), ImageFormat::Tiff, 200, 300}};
}

// Leaves no fixtures behind in the temporary folder.
class RemoveFixtures : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(dir()); }
};
[[maybe_unused]] ::testing::Environment* const kRemoveFixtures =
    ::testing::AddGlobalTestEnvironment(new RemoveFixtures);

}  // namespace

TEST(ImageProbe, ReadsSizesOfEveryFormat) {
  for (const Sample& s : validSamples()) {
    SCOPED_TRACE(s.name);
    const ImageInfo info = probeImage(write(s.name, s.bytes));
    EXPECT_EQ(info.format, s.format);
    EXPECT_EQ(info.width, s.w);
    EXPECT_EQ(info.height, s.h);
    EXPECT_EQ(info.frames, 1);
    EXPECT_TRUE(info.warning.empty()) << info.warning;
  }
}

TEST(ImageProbe, CountsGifAndWebpFramesAndTheirRate) {
  const ImageInfo g = probeImage(write("anim.gif", gif(64, 48, 5, 20)));
  EXPECT_EQ(g.frames, 5);
  EXPECT_DOUBLE_EQ(g.fps, 5.0);  // 20/100 s per frame
  const ImageInfo w = probeImage(write("anim.webp", webpExtended(64, 48, 3, 250)));
  EXPECT_EQ(w.frames, 3);
  EXPECT_DOUBLE_EQ(w.fps, 4.0);
  EXPECT_EQ(w.width, 64);
  EXPECT_EQ(probeImage(write("still.gif", gif(64, 48, 1))).fps, 0.0);
}

TEST(ImageProbe, QuarterTurnOrientationSwapsTheSides) {
  const ImageInfo j = probeImage(write("rot6.jpg", jpeg(640, 480, 6)));
  EXPECT_EQ(j.orientation, 6);
  EXPECT_EQ(j.width, 480);
  EXPECT_EQ(j.height, 640);
  EXPECT_EQ(j.storedWidth, 640);
  const ImageInfo flip = probeImage(write("rot3.jpg", jpeg(640, 480, 3)));
  EXPECT_EQ(flip.width, 640);  // a half turn keeps the sides
  const ImageInfo t = probeImage(write("rot8.tif", tiff(300, 200, true, 8)));
  EXPECT_EQ(t.width, 200);
  EXPECT_EQ(t.height, 300);
}

TEST(ImageProbe, RefusesEmptyFilesOfEveryExtension) {
  for (const char* name :
       {"empty.png", "empty.jpg", "empty.bmp", "empty.webp", "empty.gif", "empty.tif", "empty"}) {
    const std::string path = write(name, "");
    const std::string m = refusal(path);
    EXPECT_TRUE(contains(m, "empty (0 bytes)")) << m;
    EXPECT_TRUE(contains(m, path)) << m;
  }
}

// Every proper prefix of every valid file (all of the first 256 bytes, then a sample of the
// rest) is refused as truncated: the header, the chunk and
// block walks and the pixel-data bounds all notice a cut.
TEST(ImageProbe, RefusesEveryTruncation) {
  for (const Sample& s : validSamples()) {
    for (std::size_t cut = 1; cut < s.bytes.size(); cut += cut < 256 ? 1 : 37) {
      const std::string path = write(std::string("cut-") + s.name, s.bytes.substr(0, cut));
      const std::string m = refusal(path);
      ASSERT_FALSE(m.empty()) << s.name << " cut at " << cut << " was accepted";
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      EXPECT_TRUE(contains(m, path)) << m;
      // A one-byte "B" or "R" cannot be told apart from any other file.
      if (cut >= 2)
        EXPECT_TRUE(contains(m, "truncated")) << s.name << " cut at " << cut << ": " << m;
    }
  }
}

TEST(ImageProbe, ContentWinsOverAWrongExtensionAndSaysSo) {
  const ImageInfo info = probeImage(write("actually-png.jpg", png(100, 50)));
  EXPECT_EQ(info.format, ImageFormat::Png);
  EXPECT_EQ(info.width, 100);
  EXPECT_TRUE(contains(info.warning, "extension says JPEG")) << info.warning;
  EXPECT_TRUE(contains(info.warning, "content is PNG")) << info.warning;
  EXPECT_TRUE(contains(info.warning, "actually-png.jpg")) << info.warning;
  // An extension that names no picture format is not a disagreement.
  EXPECT_TRUE(probeImage(write("frame.dat", gif(40, 40))).warning.empty());
}

TEST(ImageProbe, RefusesFilesThatAreNotPictures) {
  for (auto [name, bytes] : {std::pair<const char*, Bytes>{"notes.png", "hello, world\n"},
                             {"random.jpg", Bytes("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9)},
                             {"script.gif", "#!/bin/sh\necho hi\n"}}) {
    const std::string m = refusal(write(name, bytes));
    EXPECT_TRUE(contains(m, "not a picture")) << m;
    EXPECT_TRUE(contains(m, name)) << m;
  }
}

TEST(ImageProbe, NamesUnsupportedFormats) {
  Bytes heic(
      "\0\0\0\x18"
      "ftypheic\0\0\0\0mif1heic",
      24);
  Bytes bigTiff("II\x2b\0\x08\0\0\0", 8);
  const std::pair<const char*, Bytes> cases[] = {
      {"layers.psd", Bytes("8BPS\0\x01\0\0\0\0\0\0", 12)},
      {"phone.heic", heic},
      {"big.tif", bigTiff},
      {"lossless.jpg", jpeg(100, 100, 0, 0xC3)},
      {"photo.jxl", Bytes("\xff\x0a\xfa\x7f", 4)},
      {"pic.ppm", "P6\n10 10\n255\n"}};
  for (const auto& [name, bytes] : cases) {
    const std::string m = refusal(write(name, bytes));
    EXPECT_TRUE(contains(m, "unsupported")) << name << ": " << m;
    EXPECT_TRUE(contains(m, name)) << m;
  }
}

TEST(ImageProbe, RefusesHugeHeadersBeforeReadingFurther) {
  // Header only: no pixel data at all, so "truncated" would mean the limit came too late.
  const std::pair<const char*, Bytes> cases[] = {
      {"huge.png", png(30000, 30000).substr(0, 33)},
      {"huge.jpg", jpeg(30000, 30000).substr(0, 200)},
      {"huge.gif", gif(30000, 30000).substr(0, 13)},
      {"huge.bmp", bmp(30000, 30000, false, false)},
      {"huge-core.bmp", bmp(30000, 30000, true, false)},
      {"huge.webp", webpExtended(30000, 30000)},
      {"huge-lossless.webp", webpLossless(16384, 16384)},
      {"huge.tif", tiff(30000, 30000)},
  };
  for (const auto& [name, bytes] : cases) {
    const std::string m = refusal(write(name, bytes));
    EXPECT_TRUE(contains(m, "too large")) << name << ": " << m;
    EXPECT_TRUE(contains(m, name)) << m;
    EXPECT_TRUE(contains(m, std::to_string(kMaxImagePixels))) << m;
  }
  EXPECT_TRUE(contains(refusal(write("huge.png", png(30000, 30000))), "30000x30000"));
  // The limit itself: 8192 x 8192 passes, one more row does not.
  EXPECT_EQ(probeImage(write("limit.png", png(8192, 8192))).width, 8192);
  EXPECT_TRUE(contains(refusal(write("over.png", png(8192, 8193))), "too large"));
}

TEST(ImageProbe, RefusedHugePicturesKeepPeakMemorySmall) {
  std::vector<std::string> paths = {write("mem.png", png(30000, 30000)),
                                    write("mem.jpg", jpeg(30000, 30000)),
                                    write("mem.bmp", bmp(30000, 30000, false, false)),
                                    write("mem.gif", gif(30000, 30000)),
                                    write("mem.tif", tiff(30000, 30000)),
                                    write("mem.webp", webpExtended(30000, 30000))};
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int refused = 0;
    for (const auto& p : paths) {
      try {
        probeImage(p);
      } catch (const InputError&) {
        ++refused;
      }
    }
    _exit(refused == static_cast<int>(paths.size()) ? 0 : 1);
  }
  int status = 0;
  rusage child{};
  ASSERT_EQ(wait4(pid, &status, 0, &child), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a huge header was accepted";
  // ru_maxrss is in KiB. Decoding one 30000 x 30000 picture would need 2.6 GiB at 24 bits.
  EXPECT_LT(child.ru_maxrss, self.ru_maxrss + 16 * 1024) << "child peak " << child.ru_maxrss;
}

TEST(ImageProbe, RefusesMissingFilesFoldersAndZeroSizes) {
  EXPECT_TRUE(contains(refusal((dir() / "nope.png").string()), "not found"));
  fs::create_directories(dir() / "a-folder.png");
  EXPECT_TRUE(contains(refusal((dir() / "a-folder.png").string()), "folder"));
  EXPECT_TRUE(contains(refusal(write("zero-w.png", png(0, 10))), "invalid PNG header"));
  EXPECT_TRUE(contains(refusal(write("zero-h.gif", gif(10, 0))), "invalid GIF header"));
  EXPECT_TRUE(contains(refusal(write("zero.bmp", bmp(0, 10))), "invalid BMP header"));
}
