// The first image file directory (IFD0) of a TIFF structure: in TIFF files and in the EXIF block
// of JPEG files.
#pragma once

#include <vector>

#include "io/image/probe_reader.h"

namespace ropescope::probe {

struct TiffTags {
  long long width = -1, height = -1;
  int orientation = 1;
  long long stripOffset = -1, stripBytes = -1;  // last strip, when known
};

// Reads IFD0 of a TIFF structure through `read(offset, out, n)`; offsets are relative to the
// TIFF header. `total` is the structure's size.
template <typename Read>
TiffTags readIfd0(const std::string& path, Read read, u64 total, const char* what) {
  u8 head[8];
  if (!read(0, head, 8))
    fail(path, std::string("truncated: the file ends inside the ") + what + " header");
  const bool little = head[0] == 'I';
  auto u16 = [&](const u8* p) { return little ? le16(p) : be16(p); };
  auto u32 = [&](const u8* p) { return little ? le32(p) : be32(p); };
  const u64 ifd = u32(head + 4);
  if (ifd < 8 || ifd + 2 > total)
    fail(path, std::string("truncated or corrupt ") + what + ": first directory at byte " +
                   std::to_string(ifd) + " lies outside the " + std::to_string(total) + " bytes");
  u8 countBytes[2];
  if (!read(ifd, countBytes, 2)) fail(path, std::string("truncated ") + what + " directory");
  const std::uint32_t count = u16(countBytes);
  if (count == 0) fail(path, std::string("invalid ") + what + ": empty first directory");
  TiffTags tags;
  long long stripOffsetsCount = 0, stripBytesCount = 0;
  std::uint32_t stripOffsetsType = 0, stripBytesType = 0;
  u64 stripOffsetsAt = 0, stripBytesAt = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    u8 e[12];
    if (!read(ifd + 2 + 12ull * i, e, 12))
      fail(path, std::string("truncated: the file ends inside the ") + what + " directory");
    const std::uint32_t tag = u16(e), type = u16(e + 2), n = u32(e + 4);
    // SHORT values sit in the first two bytes of the value field, LONG in all four.
    const std::uint32_t value = type == 3 ? u16(e + 8) : u32(e + 8);
    switch (tag) {
      case 256:
        tags.width = value;
        break;
      case 257:
        tags.height = value;
        break;
      case 274:
        tags.orientation = static_cast<int>(value);
        break;
      case 273:
      case 279: {
        // With one strip the value is inline; with more, the field points at an array whose
        // last element describes the last strip.
        const std::uint32_t size = type == 3 ? 2 : 4;
        const u64 at = n * static_cast<u64>(size) <= 4 ? 0 : u32(e + 8);
        if (tag == 273) {
          stripOffsetsCount = n, stripOffsetsType = type, stripOffsetsAt = at;
          if (n == 1) tags.stripOffset = value;
        } else {
          stripBytesCount = n, stripBytesType = type, stripBytesAt = at;
          if (n == 1) tags.stripBytes = value;
        }
        break;
      }
      default:
        break;
    }
  }
  auto lastOf = [&](long long n, std::uint32_t type, u64 at) -> long long {
    if (n <= 1 || at == 0 || (type != 3 && type != 4)) return -1;
    const std::uint32_t size = type == 3 ? 2 : 4;
    u8 v[4];
    if (!read(at + static_cast<u64>(n - 1) * size, v, size))
      fail(path, std::string("truncated: the file ends inside the ") + what + " strip table");
    return size == 2 ? u16(v) : u32(v);
  };
  if (stripOffsetsCount > 1 && stripOffsetsCount == stripBytesCount) {
    tags.stripOffset = lastOf(stripOffsetsCount, stripOffsetsType, stripOffsetsAt);
    tags.stripBytes = lastOf(stripBytesCount, stripBytesType, stripBytesAt);
  }
  return tags;
}

// EXIF orientation from an APP1 payload ("Exif\0\0" + TIFF structure); 1 when absent or odd.
int exifOrientation(const std::string& path, const std::vector<u8>& app1);

}  // namespace ropescope::probe
