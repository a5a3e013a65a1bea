// .npz archives as np.savez writes them: a zip file whose entries are .npy files. Only what
// np.savez produces is read: stored (uncompressed) entries, found through the central directory
// (numpy writes zip64 records, force_zip64, whose sizes live in the zip64 extra field).
#include <cstdint>
#include <fstream>
#include <iterator>

#include "ropescope/errors.h"
#include "ropescope/npy.h"

namespace ropescope {

namespace {

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

}  // namespace

std::vector<std::pair<std::string, NpyNumbers>> readNpzNumbers(const std::string& path,
                                                               const std::string& what) {
  const std::string where = what + " \"" + path + "\"";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + " cannot be opened", "tokens");
  const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto bad = [&](const std::string& why) -> InputError {
    return InputError(where + " is not an archive np.savez writes (" + why + ")", "tokens");
  };
  // End of central directory: the last "PK\5\6" within the final 64 KiB + 22 bytes.
  std::size_t eocd = std::string::npos;
  const std::size_t lowest = b.size() > 65557 ? b.size() - 65557 : 0;
  for (std::size_t i = b.size() >= 22 ? b.size() - 22 : 0; i + 22 <= b.size() && i >= lowest; --i) {
    if (b.compare(i, 4, "PK\x05\x06") == 0) {
      eocd = i;
      break;
    }
    if (i == 0) break;
  }
  if (eocd == std::string::npos) throw bad("no zip directory");
  std::uint64_t entries = le(b, eocd + 10, 2);
  std::uint64_t dir = le(b, eocd + 16, 4);
  if (dir == 0xFFFFFFFF || entries == 0xFFFF) {  // zip64 end of central directory
    if (eocd < 20 || b.compare(eocd - 20, 4, "PK\x06\x07") != 0) throw bad("no zip64 locator");
    const std::uint64_t at = le(b, eocd - 20 + 8, 8);
    if (at + 56 > b.size() || b.compare(at, 4, "PK\x06\x06") != 0) throw bad("bad zip64 record");
    entries = le(b, at + 32, 8);
    dir = le(b, at + 48, 8);
  }
  std::vector<std::pair<std::string, NpyNumbers>> out;
  std::size_t p = dir;
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (p + 46 > b.size() || b.compare(p, 4, "PK\x01\x02") != 0) throw bad("bad directory entry");
    const std::uint64_t method = le(b, p + 10, 2);
    std::uint64_t size = le(b, p + 20, 4);
    const std::size_t nameLen = le(b, p + 28, 2), extraLen = le(b, p + 30, 2),
                      commentLen = le(b, p + 32, 2);
    std::uint64_t local = le(b, p + 42, 4);
    if (p + 46 + nameLen + extraLen > b.size()) throw bad("bad directory entry");
    const std::string name = b.substr(p + 46, nameLen);
    // zip64 extra field: the 64-bit values of the fields set to 0xFFFFFFFF, in order.
    for (std::size_t x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen;) {
      const std::uint64_t id = le(b, x, 2), len = le(b, x + 2, 2);
      if (id == 1) {
        std::size_t f = x + 4;
        if (size == 0xFFFFFFFF) {  // uncompressed size, then compressed size
          size = le(b, f, 8);
          f += 8;
        }
        if (le(b, p + 20, 4) == 0xFFFFFFFF && le(b, p + 24, 4) == 0xFFFFFFFF) f += 8;
        if (local == 0xFFFFFFFF) local = le(b, f, 8);
      }
      x += 4 + len;
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (method != 0)
      throw InputError(where + ": entry \"" + name +
                           "\" is compressed (np.savez_compressed); save with np.savez",
                       "tokens");
    if (local + 30 > b.size() || b.compare(local, 4, "PK\x03\x04") != 0)
      throw bad("bad entry \"" + name + "\"");
    const std::size_t data = local + 30 + le(b, local + 26, 2) + le(b, local + 28, 2);
    if (data + size > b.size()) throw bad("entry \"" + name + "\" is truncated");
    std::string key = name;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0) key.resize(key.size() - 4);
    out.emplace_back(key, readNpyNumbersBytes(std::string_view(b).substr(data, size),
                                              where + ", entry \"" + name + "\""));
  }
  return out;
}

}  // namespace ropescope
