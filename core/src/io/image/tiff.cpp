// TIFF: size and orientation from IFD0, the last strip checked against the file size; and the
// EXIF orientation of JPEG files (the same directory format).
#include "io/image/tiff_ifd.h"

#include "ropescope/errors.h"

namespace ropescope::probe {

int exifOrientation(const std::string& path, const std::vector<u8>& app1) {
  if (app1.size() < 14 || std::memcmp(app1.data(), "Exif\0\0", 6) != 0) return 1;
  const u8* tiff = app1.data() + 6;
  const u64 total = app1.size() - 6;
  if (!((tiff[0] == 'I' && tiff[1] == 'I') || (tiff[0] == 'M' && tiff[1] == 'M'))) return 1;
  auto read = [&](u64 off, u8* out, std::size_t n) {
    if (off > total || n > total - off) return false;
    std::memcpy(out, tiff + off, n);
    return true;
  };
  try {
    const int o = readIfd0(path, read, total, "EXIF block").orientation;
    return o >= 1 && o <= 8 ? o : 1;
  } catch (const InputError&) {
    return 1;  // a broken EXIF block does not make the picture unreadable
  }
}

ImageInfo probeTiff(File& f) {
  auto read = [&](u64 off, u8* out, std::size_t n) { return f.readAt(off, out, n); };
  const TiffTags t = readIfd0(f.path(), read, f.size(), "TIFF");
  if (t.width < 0 || t.height < 0)
    fail(f.path(), "invalid TIFF: no ImageWidth/ImageLength in the first directory");
  checkSize(f.path(), "TIFF", t.width, t.height);
  if (t.stripOffset >= 0 && t.stripBytes >= 0 &&
      static_cast<u64>(t.stripOffset) + static_cast<u64>(t.stripBytes) > f.size())
    fail(f.path(), "truncated: the last TIFF strip ends at byte " +
                       std::to_string(t.stripOffset + t.stripBytes) + ", the file has " +
                       std::to_string(f.size()));
  ImageInfo info;
  info.format = ImageFormat::Tiff;
  info.storedWidth = info.width = static_cast<int>(t.width);
  info.storedHeight = info.height = static_cast<int>(t.height);
  info.orientation = t.orientation >= 1 && t.orientation <= 8 ? t.orientation : 1;
  return info;
}

}  // namespace ropescope::probe
