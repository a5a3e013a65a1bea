// Animated GIFs as giflib reads them back (the writer is giflib's encoder since): the
// frames' pixels, their delays, disposal and transparency, the loop count; and the GIF through
// core's one output path: a FIFO gets it in place, a link is written through, a replaced file
// keeps its mode, a cancelled or failed GIF leaves what was at the path.
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../../common/fifo_reader.h"
#include "figures/gif_palette.h"
#include "figures/gif_writer.h"

using namespace ropescope::ui;

namespace {

struct DecodedGif {
  std::string error;  // empty when giflib read it whole
  int width = 0, height = 0;
  std::vector<QImage> frames;
  std::vector<int> delays, disposals, transparent;
  int loops = -1;  // the NETSCAPE2.0 loop count; -1 when there is none
};

struct Source {
  const QByteArray* bytes;
  qsizetype at = 0;
};

int readBytes(GifFileType* gif, GifByteType* out, int n) {
  auto* s = static_cast<Source*>(gif->UserData);
  const int left = static_cast<int>(s->bytes->size() - s->at);
  n = std::min(n, left);
  std::memcpy(out, s->bytes->constData() + s->at, static_cast<std::size_t>(n));
  s->at += n;
  return n;
}

int loopCount(const SavedImage& image) {
  for (int i = 0; i + 1 < image.ExtensionBlockCount; ++i) {
    const ExtensionBlock& b = image.ExtensionBlocks[i];
    const ExtensionBlock& data = image.ExtensionBlocks[i + 1];
    if (b.Function == APPLICATION_EXT_FUNC_CODE && b.ByteCount == 11 &&
        std::memcmp(b.Bytes, "NETSCAPE2.0", 11) == 0 && data.ByteCount == 3 && data.Bytes[0] == 1)
      return data.Bytes[1] | data.Bytes[2] << 8;
  }
  return -1;
}

DecodedGif decode(const QByteArray& bytes) {
  DecodedGif d;
  Source source{&bytes};
  int error = 0;
  GifFileType* gif = DGifOpen(&source, readBytes, &error);
  if (!gif) {
    d.error = GifErrorString(error);
    return d;
  }
  if (DGifSlurp(gif) == GIF_ERROR) {
    d.error = GifErrorString(gif->Error);
    DGifCloseFile(gif, &error);
    return d;
  }
  d.width = gif->SWidth;
  d.height = gif->SHeight;
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& image = gif->SavedImages[i];
    const GifImageDesc& desc = image.ImageDesc;
    const ColorMapObject* map = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
    QImage frame(desc.Width, desc.Height, QImage::Format_RGB32);
    for (int y = 0; y < desc.Height; ++y)
      for (int x = 0; x < desc.Width; ++x) {
        const GifColorType c = map->Colors[image.RasterBits[y * desc.Width + x]];
        frame.setPixel(x, y, qRgb(c.Red, c.Green, c.Blue));
      }
    d.frames.push_back(frame);
    GraphicsControlBlock control{};
    if (DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK) {
      d.delays.push_back(control.DelayTime);
      d.disposals.push_back(control.DisposalMode);
      d.transparent.push_back(control.TransparentColor);
    }
    if (i == 0) d.loops = loopCount(image);
  }
  DGifCloseFile(gif, &error);
  return d;
}

QByteArray slurp(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QImage noise(QSize size, int colours, unsigned seed) {
  QImage image(size, QImage::Format_RGB32);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, colours - 1);
  for (int y = 0; y < size.height(); ++y)
    for (int x = 0; x < size.width(); ++x) {
      const int c = pick(rng);
      image.setPixel(x, y, qRgb(c, (c * 37) % 256, 255 - c));
    }
  return image;
}

long differingPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return -1;
  long n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

std::vector<QImage> someFrames(QSize size) {
  QImage one(size, QImage::Format_RGB32);
  one.fill(qRgb(10, 200, 30));
  QImage checker(size, QImage::Format_RGB32);
  for (int y = 0; y < size.height(); ++y)
    for (int x = 0; x < size.width(); ++x)
      checker.setPixel(x, y, (x / 4 + y / 4) % 2 ? qRgb(255, 255, 255) : qRgb(0, 0, 90));
  return {noise(size, 200, 1), one, checker, noise(size, 256, 2)};
}

std::size_t temporaries(const QString& dir) {
  std::size_t n = 0;
  for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden))
    n += name.contains(QStringLiteral(".tmp-"));
  return n;
}

bool writeGif(const QString& path, const std::vector<QImage>& frames, QSize size, int delay,
              int loops, QString* error) {
  GifWriter writer;
  bool ok = writer.open(path, size, delay, loops);
  for (const QImage& f : frames) ok = ok && writer.addFrame(f);
  ok = ok && writer.close();
  if (!ok) *error = writer.errorString();
  return ok;
}

}  // namespace

TEST(TeachGif, GiflibReadsBackTheFramesDelaysAndLoopsAsked) {
  const QSize size(97, 61);
  const std::vector<QImage> frames = someFrames(size);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("asked.gif"));
  QString error;
  ASSERT_TRUE(writeGif(path, frames, size, 7, 3, &error)) << error.toStdString();
  const QByteArray bytes = slurp(path);
  ASSERT_TRUE(bytes.startsWith("GIF89a"));
  const DecodedGif d = decode(bytes);
  ASSERT_EQ(d.error, "");
  EXPECT_EQ(d.width, 97);
  EXPECT_EQ(d.height, 61);
  ASSERT_EQ(d.frames.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(differingPixels(d.frames[i], frames[i]), 0) << "at most 256 colours: exact";
  }
  EXPECT_EQ(d.delays, std::vector<int>(frames.size(), 7));
  EXPECT_EQ(d.disposals, std::vector<int>(frames.size(), DISPOSE_DO_NOT));
  EXPECT_EQ(d.transparent, std::vector<int>(frames.size(), NO_TRANSPARENT_COLOR));
  EXPECT_EQ(d.loops, 3);

  // The defaults: loop forever (0); a frame of another size is scaled to the GIF's.
  const QString loopsForever = dir.filePath(QStringLiteral("forever.gif"));
  ASSERT_TRUE(writeGif(loopsForever, {frames[1].scaled(40, 30)}, size, 250, 0, &error))
      << error.toStdString();
  const DecodedGif f = decode(slurp(loopsForever));
  ASSERT_EQ(f.error, "");
  EXPECT_EQ(f.loops, 0);
  ASSERT_EQ(f.frames.size(), 1u);
  EXPECT_EQ(f.frames[0].size(), size);
  EXPECT_EQ(f.frames[0].pixel(50, 30), qRgb(10, 200, 30));
  EXPECT_EQ(f.delays, std::vector<int>{250});
}

TEST(TeachGif, MoreThan256ColoursComeBackAsTheirPalette) {
  // 64 x 64 = 4096 colours: each pixel comes back as its palette colour (figures/gif_palette.h,
  // the 256 most popular cells of the histogram), exactly.
  QImage gradient(256, 256, QImage::Format_RGB32);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) gradient.setPixel(x, y, qRgb(x / 4 * 4, y / 4 * 4, 128));
  const IndexedFrame asked = indexColours(gradient);
  ASSERT_EQ(asked.bits, 8);
  QImage expected(gradient.size(), QImage::Format_RGB32);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x)
      expected.setPixel(x, y, asked.palette[asked.indices[y * 256 + x]]);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("gradient.gif"));
  QString error;
  ASSERT_TRUE(writeGif(path, {gradient}, gradient.size(), 10, 0, &error)) << error.toStdString();
  const DecodedGif d = decode(slurp(path));
  ASSERT_EQ(d.error, "");
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_EQ(differingPixels(d.frames[0], expected), 0);
  double sum = 0;
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      const QRgb a = gradient.pixel(x, y), b = d.frames[0].pixel(x, y);
      sum += std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
             std::abs(qBlue(a) - qBlue(b));
    }
  const double mean = sum / (256.0 * 256.0 * 3.0);
  EXPECT_GT(mean, 0.0) << "4096 colours cannot all be in a 256-colour palette";
  EXPECT_LT(mean, 40.0) << "the palette is far from the picture";
}

TEST(TeachGif, AFifoGetsTheGifInPlace) {
  QTemporaryDir dir;
  const QString fifo = dir.filePath(QStringLiteral("pipe.gif"));
  ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0) << std::strerror(errno);
  const QSize size(33, 21);
  const std::vector<QImage> frames = someFrames(size);
  {
    ropescope::test::FifoReader reader(fifo.toStdString());
    QString error;
    ASSERT_TRUE(writeGif(fifo, frames, size, 4, 0, &error)) << error.toStdString();
    const std::string received = reader.finish();
    const DecodedGif d = decode(QByteArray(received.data(), qsizetype(received.size())));
    ASSERT_EQ(d.error, "");
    ASSERT_EQ(d.frames.size(), frames.size());
    EXPECT_EQ(differingPixels(d.frames[2], frames[2]), 0);
  }
  struct stat st {};
  ASSERT_EQ(::lstat(QFile::encodeName(fifo).constData(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  {
    // Cancelled (destroyed before close): the reader gets the frames so far, not the trailer.
    ropescope::test::FifoReader reader(fifo.toStdString());
    {
      GifWriter writer;
      ASSERT_TRUE(writer.open(fifo, size, 4));
      ASSERT_TRUE(writer.addFrame(frames[0]));
    }
    const std::string received = reader.finish();
    ASSERT_FALSE(received.empty());
    EXPECT_EQ(received.compare(0, 6, "GIF89a"), 0);
    EXPECT_NE(received.back(), ';') << "a cancelled GIF got its trailer";
    EXPECT_NE(decode(QByteArray(received.data(), qsizetype(received.size()))).error, "");
  }
}

TEST(TeachGif, ACancelledGifLeavesTheOldFileAndAReplacedOneKeepsItsMode) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("old.gif"));
  { std::ofstream(path.toStdString()) << "old content\n"; }
  ASSERT_EQ(::chmod(QFile::encodeName(path).constData(), 0640), 0);
  const QSize size(20, 10);
  const std::vector<QImage> frames = someFrames(size);
  {
    GifWriter writer;
    ASSERT_TRUE(writer.open(path, size, 4));
    ASSERT_TRUE(writer.addFrame(frames[0]));
  }
  EXPECT_EQ(slurp(path), QByteArray("old content\n"));
  EXPECT_EQ(temporaries(dir.path()), 0u);
  QString error;
  ASSERT_TRUE(writeGif(path, frames, size, 4, 0, &error)) << error.toStdString();
  struct stat st {};
  ASSERT_EQ(::lstat(QFile::encodeName(path).constData(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0640u) << "mode not kept";
  EXPECT_EQ(decode(slurp(path)).frames.size(), frames.size());
  EXPECT_EQ(temporaries(dir.path()), 0u);

  // Through a symbolic link: the link's target is replaced, the link stays a link.
  const QString link = dir.filePath(QStringLiteral("link.gif"));
  ASSERT_TRUE(QFile::link(QStringLiteral("old.gif"), link));
  ASSERT_TRUE(writeGif(link, {frames[1]}, size, 9, 0, &error)) << error.toStdString();
  EXPECT_TRUE(QFileInfo(link).isSymLink());
  const DecodedGif d = decode(slurp(path));
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_EQ(d.delays, std::vector<int>{9});
}

TEST(TeachGif, AFailedWriteSaysWhyAndCommitsNothing) {
  const QSize size(16, 16);
  const std::vector<QImage> frames = someFrames(size);
  // /dev/full takes the open and refuses every write (ENOSPC).
  GifWriter full;
  const bool opened = full.open(QStringLiteral("/dev/full"), size, 4);
  const bool added = opened && full.addFrame(frames[0]);
  EXPECT_FALSE(opened && added && full.close());
  EXPECT_TRUE(full.errorString().contains(QStringLiteral("/dev/full")))
      << full.errorString().toStdString();
  EXPECT_FALSE(full.errorString().contains(QLatin1Char('\n')));
  EXPECT_FALSE(full.close()) << "a failed GIF closed later";

  QTemporaryDir dir;
  GifWriter folder;
  EXPECT_FALSE(folder.open(dir.path(), size, 4));
  EXPECT_TRUE(folder.errorString().contains(QStringLiteral("folder")))
      << folder.errorString().toStdString();
  EXPECT_FALSE(folder.addFrame(frames[0]));
  EXPECT_FALSE(folder.close());

  GifWriter tooBig;
  EXPECT_FALSE(tooBig.open(dir.filePath(QStringLiteral("big.gif")), QSize(70000, 2), 4));
  EXPECT_TRUE(tooBig.errorString().contains(QStringLiteral("1..65535")));
  EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("big.gif"))));
}
