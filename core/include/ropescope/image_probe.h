// Picture size from the file header alone: PNG, JPEG, BMP, WebP, GIF and TIFF, read with small
// bounded reads and refused above a pixel limit before any pixel data is touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ropescope {

enum class ImageFormat { Png, Jpeg, Bmp, WebP, Gif, Tiff };

// "PNG", "JPEG", "BMP", "WebP", "GIF", "TIFF".
const char* imageFormatName(ImageFormat format);

// Largest picture accepted: 8192 x 8192 = 67,108,864 pixels (a 30000 x 30000 header is
// refused). About 5x what the Qwen processors keep (max_pixels 12,845,056 / 16,777,216), so
// any real photo up to 67 Mpx passes, and the decoded picture stays at 256 MiB as 32-bit RGBA
// (512 MiB for 16-bit PNG, which Qt decodes to RGBA64). Qt 6.4's QImageReader refuses above
// 128 MB by default (QImageReader::allocationLimit() on Debian 12): the GUI must raise it to
// 512 MB or decodes with setScaledSize; PIL's DecompressionBombError (178,956,970 px) is
// higher still.
inline constexpr std::int64_t kMaxImagePixels = 8192LL * 8192LL;
// Most frames counted in an animated GIF or WebP (more is refused, not truncated).
inline constexpr int kMaxImageFrames = 100000;

struct ImageInfo {
  ImageFormat format = ImageFormat::Png;
  // Size as displayed: for JPEG and TIFF with an EXIF/TIFF orientation of 5..8 (a quarter
  // turn), width and height are swapped, as Hugging Face's load_image (exif_transpose) and Qt's
  // QImageReader with autoTransform do. storedWidth/Height are the header's own numbers.
  int width = 0;
  int height = 0;
  int storedWidth = 0;
  int storedHeight = 0;
  int orientation = 1;  // EXIF orientation 1..8 (1 = as stored)
  int frames = 1;       // GIF and animated WebP: number of frames; 1 for everything else
  double fps = 0.0;     // GIF / animated WebP: frames per second from the frame delays; 0 unknown
  // Content decides the format. When the file name's extension names another known format
  // (photo.jpg holding a PNG), the picture is still read and this says so in one line; empty
  // otherwise.
  std::string warning;
};

// Reads `path`'s header. Throws InputError (field "image") with one line "PATH: problem" for a
// missing or unreadable file, a folder, an empty file, a truncated file, a file that is not a
// picture, a picture in an unsupported format (PSD, HEIF/AVIF, JPEG 2000, JPEG XL, lossless
// JPEG, BigTIFF, ...), a zero or negative size, or more than kMaxImagePixels pixels. Memory use
// is bounded (at most 64 KiB buffers) whatever the header claims; the whole file is walked
// only for GIF, JPEG and PNG block structure (to count frames and detect truncation), never
// decoded.
ImageInfo probeImage(const std::string& path);

// The same checks on a file's bytes already in memory (a download, a fuzzer's input). `name`
// stands for the path in messages and in the extension check.
ImageInfo probeImageBytes(const void* data, std::size_t size, const std::string& name);

}  // namespace ropescope
