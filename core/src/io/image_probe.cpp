// Header-only probing of picture files: the signature picks the format (io/image/, one file per
// format), formats we recognise but do not read are named, and the extension is compared with
// the content.
#include "ropescope/image_probe.h"

#include <sys/stat.h>

#include <cctype>
#include <cstring>

#include "io/image/probe_reader.h"

namespace ropescope {

const char* imageFormatName(ImageFormat format) {
  switch (format) {
    case ImageFormat::Png:
      return "PNG";
    case ImageFormat::Jpeg:
      return "JPEG";
    case ImageFormat::Bmp:
      return "BMP";
    case ImageFormat::WebP:
      return "WebP";
    case ImageFormat::Gif:
      return "GIF";
    case ImageFormat::Tiff:
      return "TIFF";
  }
  return "?";
}

using namespace probe;

namespace {

// Names formats we recognise but do not read, so the message says what the file is.
std::string unsupportedKind(const u8* h, std::size_t n) {
  auto is = [&](std::size_t at, const char* sig) {
    const std::size_t len = std::strlen(sig);
    return n >= at + len && std::memcmp(h + at, sig, len) == 0;
  };
  if (is(0, "8BPS")) return "Photoshop PSD";
  if (is(4, "ftypavif") || is(4, "ftypavis")) return "AVIF";
  if (is(4, "ftypheic") || is(4, "ftypheix") || is(4, "ftypmif1") || is(4, "ftyphevc"))
    return "HEIF/HEIC";
  if (is(0, "%PDF")) return "PDF";
  if (is(0, "qoif")) return "QOI";
  if (is(0, "DDS ")) return "DirectDraw Surface";
  if (is(0, "#?RADIANCE") || is(0, "#?RGBE")) return "Radiance HDR";
  if (n >= 4 && h[0] == 0x76 && h[1] == 0x2F && h[2] == 0x31 && h[3] == 0x01) return "OpenEXR";
  if (n >= 2 && h[0] == 0xFF && h[1] == 0x0A) return "JPEG XL";
  if (is(4, "JXL ")) return "JPEG XL";
  if (is(4, "jP  ") || (n >= 4 && h[0] == 0xFF && h[1] == 0x4F && h[2] == 0xFF && h[3] == 0x51))
    return "JPEG 2000";
  if (n >= 4 && ((h[0] == 'I' && h[1] == 'I' && h[2] == 0x2B && h[3] == 0) ||
                 (h[0] == 'M' && h[1] == 'M' && h[2] == 0 && h[3] == 0x2B)))
    return "BigTIFF";
  if (n >= 4 && h[0] == 0 && h[1] == 0 && (h[2] == 1 || h[2] == 2) && h[3] == 0)
    return "Windows icon (ICO/CUR)";
  if (n >= 2 && h[0] == 'P' && h[1] >= '1' && h[1] <= '7') return "Netpbm (PNM/PAM)";
  if (is(0, "<svg") || is(0, "<?xml")) return "SVG/XML";
  if (is(0, "RIFF")) return "RIFF container that is not WebP (AVI/WAV?)";
  return {};
}

std::string lowerExtension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The format a file name's extension names, or nullptr for an extension we do not know.
const ImageFormat* extensionFormat(const std::string& path) {
  static const std::pair<const char*, ImageFormat> kNames[] = {
      {"png", ImageFormat::Png},  {"jpg", ImageFormat::Jpeg},  {"jpeg", ImageFormat::Jpeg},
      {"jpe", ImageFormat::Jpeg}, {"jfif", ImageFormat::Jpeg}, {"bmp", ImageFormat::Bmp},
      {"dib", ImageFormat::Bmp},  {"webp", ImageFormat::WebP}, {"gif", ImageFormat::Gif},
      {"tif", ImageFormat::Tiff}, {"tiff", ImageFormat::Tiff}};
  const std::string ext = lowerExtension(path);
  for (const auto& [name, format] : kNames)
    if (ext == name) return &format;
  return nullptr;
}

}  // namespace

namespace {
ImageInfo probeFile(File& f);
}  // namespace

ImageInfo probeImage(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, "file not found");
  if (S_ISDIR(st.st_mode)) fail(path, "is a folder, not a picture file");
  if (!S_ISREG(st.st_mode)) fail(path, "is not a regular file");
  FILE* raw = std::fopen(path.c_str(), "rb");
  if (!raw) fail(path, "cannot open (no permission?)");
  File f(path, raw, static_cast<u64>(st.st_size));
  return probeFile(f);
}

ImageInfo probeImageBytes(const void* data, std::size_t size, const std::string& name) {
  File f(name, static_cast<const u8*>(data), size);
  return probeFile(f);
}

namespace {

ImageInfo probeFile(File& f) {
  const std::string& path = f.path();
  if (f.size() == 0) fail(path, "the file is empty (0 bytes)");

  u8 h[16] = {};
  const std::size_t n = static_cast<std::size_t>(std::min<u64>(16, f.size()));
  if (!f.readAt(0, h, n)) fail(path, "read error");
  auto is = [&](const u8* sig, std::size_t len) {
    return n >= len && std::memcmp(h, sig, len) == 0;
  };
  static const u8 kPng[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  static const u8 kJpeg[] = {0xFF, 0xD8, 0xFF};
  static const u8 kTiffLe[] = {'I', 'I', 0x2A, 0};
  static const u8 kTiffBe[] = {'M', 'M', 0, 0x2A};

  ImageInfo info;
  if (is(kPng, 8)) {
    info = probePng(f);
  } else if (is(kJpeg, 3)) {
    info = probeJpeg(f);
  } else if (n >= 2 && h[0] == 'B' && h[1] == 'M') {
    info = probeBmp(f);
  } else if (n >= 12 && std::memcmp(h, "RIFF", 4) == 0 && std::memcmp(h + 8, "WEBP", 4) == 0) {
    info = probeWebp(f);
  } else if (n >= 6 && (std::memcmp(h, "GIF87a", 6) == 0 || std::memcmp(h, "GIF89a", 6) == 0)) {
    info = probeGif(f);
  } else if (is(kTiffLe, 4) || is(kTiffBe, 4)) {
    info = probeTiff(f);
  } else {
    // A prefix of a known signature in a tiny file is a truncated picture, not a stranger.
    const std::pair<const u8*, std::size_t> sigs[] = {
        {kPng, 8}, {kJpeg, 3}, {kTiffLe, 4}, {kTiffBe, 4}};
    for (const auto& [sig, len] : sigs)
      if (n < len && std::memcmp(h, sig, n) == 0)
        fail(path, "truncated: only " + std::to_string(n) + " bytes of a picture signature");
    if (n < 6 && (std::memcmp(h, "GIF89a", n) == 0 || std::memcmp(h, "GIF87a", n) == 0))
      fail(path, "truncated: only " + std::to_string(n) + " bytes of a GIF signature");
    if (n < 12 && std::memcmp(h, "RIFF", std::min<std::size_t>(n, 4)) == 0 &&
        (n <= 8 || std::memcmp(h + 8, "WEBP", n - 8) == 0))
      fail(path, "truncated: only " + std::to_string(n) + " bytes of a WebP header");
    const std::string kind = unsupportedKind(h, n);
    if (!kind.empty())
      fail(path, "unsupported format: " + kind + " (accepted: PNG, JPEG, BMP, WebP, GIF, TIFF)");
    fail(path, "not a picture: no PNG, JPEG, BMP, WebP, GIF or TIFF signature at the start");
  }
  if (info.orientation >= 5) {
    info.width = info.storedHeight;
    info.height = info.storedWidth;
  } else {
    info.width = info.storedWidth;
    info.height = info.storedHeight;
  }
  if (const ImageFormat* named = extensionFormat(path); named && *named != info.format)
    info.warning = path + ": the extension says " + imageFormatName(*named) +
                   " but the content is " + imageFormatName(info.format) + "; read as " +
                   imageFormatName(info.format);
  return info;
}

}  // namespace

}  // namespace ropescope
