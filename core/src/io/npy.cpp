// The .npy reader and writer. The header is a Python dict literal; we parse exactly the subset
// numpy writes (three keys, string / bool / tuple-of-int values) and reject everything else.
// Debian 12 packages no maintained C++ .npy reader (apt-cache search npy: none), hence our own.
#include "ropescope/npy.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"

namespace ropescope {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;

// Shows untrusted header text in a one-line message: printable ASCII only, short.
std::string printable(const std::string& s, std::size_t max = 40) {
  std::string out;
  for (char c : s.substr(0, max)) out += (c >= 32 && c < 127) ? c : '?';
  if (s.size() > max) out += "...";
  return out;
}

struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<std::size_t> shape;
};

// A tiny recursive-descent parser over the dict numpy writes:
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(const std::string& text, std::string where) : s_(text), where_(std::move(where)) {}

  Header parse() {
    Header h;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = stringLiteral();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (haveDescr) fail("repeats the key 'descr'");
        h.descr = stringLiteral();
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (haveOrder) fail("repeats the key 'fortran_order'");
        h.fortran = boolLiteral();
        haveOrder = true;
      } else if (key == "shape") {
        if (haveShape) fail("repeats the key 'shape'");
        h.shape = intTuple();
        haveShape = true;
      } else {
        fail("has an unexpected header key '" + printable(key) + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      skipSpace();
      if (peek() != '}') fail("has a malformed header (expected ',' or '}')");
    }
    expect('}');
    skipSpace();
    if (i_ != s_.size()) fail("has a malformed header (text after the dict)");
    if (!haveDescr || !haveOrder || !haveShape)
      fail("has a malformed header (needs 'descr', 'fortran_order' and 'shape')");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw InputError(where_ + what); }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n')) ++i_;
  }
  void expect(char c) {
    if (peek() != c)
      fail(std::string("has a malformed header (expected '") + c + "' at byte " +
           std::to_string(i_) + ")");
    ++i_;
  }
  std::string stringLiteral() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("has a malformed header (expected a quoted key or value)");
    ++i_;
    const std::size_t b = i_;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') fail("has a malformed header (escape in a string)");
      ++i_;
    }
    if (i_ >= s_.size()) fail("has a malformed header (unterminated string)");
    return s_.substr(b, i_++ - b);
  }
  bool boolLiteral() {
    if (s_.compare(i_, 4, "True") == 0) {
      i_ += 4;
      return true;
    }
    if (s_.compare(i_, 5, "False") == 0) {
      i_ += 5;
      return false;
    }
    fail("has a malformed header ('fortran_order' must be True or False)");
  }
  std::vector<std::size_t> intTuple() {
    expect('(');
    std::vector<std::size_t> out;
    while (true) {
      skipSpace();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        fail("has a malformed 'shape' (expected non-negative whole numbers)");
      std::size_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        const std::size_t d = static_cast<std::size_t>(s_[i_++] - '0');
        if (v > (std::numeric_limits<std::size_t>::max() - d) / 10)
          fail("has a 'shape' entry too large to be real");
        v = v * 10 + d;
      }
      if (peek() == 'L') ++i_;  // Python 2 long suffix, still written by old numpy
      out.push_back(v);
      if (out.size() > 32) fail("has more than 32 dimensions");
      skipSpace();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      skipSpace();
      if (peek() != ')') fail("has a malformed 'shape' (expected ',' or ')')");
    }
    expect(')');
    return out;
  }

  const std::string& s_;
  std::string where_;
  std::size_t i_ = 0;
};

std::uint32_t readLe(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

enum class Kind { F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

struct Dtype {
  Kind kind;
  std::size_t size;
  bool swap;
};

Dtype parseDescr(const std::string& descr, const std::string& where) {
  if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '>' || descr[0] == '=') &&
      descr[1] == 'f') {
    const bool swap = descr[0] == '>';  // little-endian host (x86-64, arm64 Linux)
    if (descr[2] == '2') return {Kind::F16, 2, swap};
    if (descr[2] == '4') return {Kind::F32, 4, swap};
    if (descr[2] == '8') return {Kind::F64, 8, swap};
  }
  if (descr == "<V2" || descr == "|V2" || descr == "V2" ||
      descr.find("bfloat16") != std::string::npos)
    throw InputError(where + "has dtype '" + printable(descr) +
                     "', which looks like a bfloat16 dump: convert it to float32 first "
                     "(torch: t.float().numpy(); ml_dtypes: a.astype(np.float32))");
  throw InputError(where + "has unsupported dtype '" + printable(descr) +
                   "' (accepted: float32 '<f4', float16 '<f2', float64 '<f8')");
}

// Every numeric dtype numpy writes for ids: floats as above, signed and unsigned integers of 1 to
// 8 bytes, and bool.
Dtype parseNumberDescr(const std::string& descr, const std::string& where) {
  if (descr == "|b1") return {Kind::Bool, 1, false};
  if (descr.size() == 3 &&
      (descr[0] == '<' || descr[0] == '>' || descr[0] == '=' || descr[0] == '|')) {
    const bool swap = descr[0] == '>';
    const char c = descr[1], n = descr[2];
    if (c == 'f') return parseDescr(descr, where);
    if (c == 'i' || c == 'u') {
      const bool s = c == 'i';
      if (n == '1') return {s ? Kind::I8 : Kind::U8, 1, false};
      if (n == '2') return {s ? Kind::I16 : Kind::U16, 2, swap};
      if (n == '4') return {s ? Kind::I32 : Kind::U32, 4, swap};
      if (n == '8') return {s ? Kind::I64 : Kind::U64, 8, swap};
    }
  }
  throw InputError(where + "has unsupported dtype '" + printable(descr) +
                   "' (accepted: int64 '<i8', int32 '<i4', other integers, float32 '<f4', "
                   "float64 '<f8', float16 '<f2')");
}

template <typename T>
T loadSwapped(const unsigned char* p, bool swap) {
  unsigned char b[sizeof(T)];
  if (swap)
    for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = p[sizeof(T) - 1 - i];
  else
    std::memcpy(b, p, sizeof(T));
  T v;
  std::memcpy(&v, b, sizeof(T));
  return v;
}

}  // namespace

float halfToFloat(unsigned short h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal half: normalise into float's wider exponent range
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

namespace {

// Magic, version, header, dtype and the size checks; leaves `in` at the data. Returns the
// element count.
std::size_t readPrelude(std::istream& in, std::uintmax_t fileSize, const std::string& where,
                        std::size_t maxElements,
                        Dtype (*parse)(const std::string&, const std::string&), Header& h,
                        Dtype& dt) {
  unsigned char pre[12] = {};
  in.read(reinterpret_cast<char*>(pre), 10);
  if (in.gcount() < 10 || std::memcmp(pre, kMagic, kMagicLen) != 0)
    throw InputError(where + "is not a .npy file (wrong magic string)");
  const int major = pre[6];
  std::size_t headerLen = 0, prefix = 0;
  if (major == 1) {
    headerLen = readLe(pre + 8, 2);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    in.read(reinterpret_cast<char*>(pre + 10), 2);
    if (in.gcount() < 2) throw InputError(where + "is truncated inside the header");
    headerLen = readLe(pre + 8, 4);
    prefix = 12;
  } else {
    throw InputError(where + "has unsupported .npy format version " + std::to_string(major) + "." +
                     std::to_string(pre[7]) + " (accepted: 1.x, 2.x, 3.x)");
  }
  if (headerLen > kNpyMaxHeaderBytes)
    throw InputError(where + "has a " + std::to_string(headerLen) + "-byte header (limit " +
                     std::to_string(kNpyMaxHeaderBytes) + ")");
  if (prefix + headerLen > fileSize) throw InputError(where + "is truncated inside the header");
  std::string text(headerLen, '\0');
  in.read(text.data(), static_cast<std::streamsize>(headerLen));
  if (static_cast<std::size_t>(in.gcount()) != headerLen)
    throw InputError(where + "is truncated inside the header");
  // numpy ends the header with '\n' and pads with spaces; a header without it is not numpy's.
  if (text.empty() || text.back() != '\n')
    throw InputError(where + "has a malformed header (no terminating newline)");
  h = HeaderParser(text, where).parse();

  dt = parse(h.descr, where);
  std::size_t count = 1;
  for (std::size_t d : h.shape) {
    if (d != 0 && count > maxElements / d)
      throw InputError(where + "has more than " + std::to_string(maxElements) +
                       " elements (limit)");
    count *= d;
  }
  if (count > maxElements)
    throw InputError(where + "has " + std::to_string(count) + " elements (limit " +
                     std::to_string(maxElements) + ")");
  const std::uintmax_t dataBytes = static_cast<std::uintmax_t>(count) * dt.size;
  const std::uintmax_t have = fileSize - prefix - headerLen;
  if (have < dataBytes)
    throw InputError(where + "is truncated: the shape needs " + std::to_string(dataBytes) +
                     " data bytes, the file has " + std::to_string(have));
  if (have > dataBytes)
    throw InputError(where + "has " + std::to_string(have - dataBytes) +
                     " bytes after the data (shape and file size disagree)");
  return count;
}

// Reads `count` elements of `dt` in bounded chunks (no second full-size buffer) and hands each
// chunk to `convert(src, n, done)`: n elements from raw bytes src, to go at index done.
template <typename Convert>
void readChunks(std::istream& in, std::size_t count, const Dtype& dt, const std::string& where,
                Convert convert) {
  constexpr std::size_t kChunk = 1 << 16;
  std::vector<unsigned char> buf(std::min(count, kChunk) * dt.size);
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(kChunk, count - done);
    in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(n * dt.size));
    if (static_cast<std::size_t>(in.gcount()) != n * dt.size)
      throw InputError(where + "is truncated (read failed)");
    convert(buf.data(), n, done);
    done += n;
  }
}

// A Fortran-order array (fortran_order: True, the first index varies fastest in the file) into
// C order, as numpy's loader hands it over: element (i0, ..., ik) is at i0 + d0 * (i1 + d1 * ...)
// in `data`. One more buffer of the array's size, for such files only.
template <typename T>
void fortranToC(std::vector<T>& data, const std::vector<std::size_t>& shape) {
  if (shape.size() < 2 || data.empty()) return;  // one axis: the two orders are the same
  const std::size_t rank = shape.size();
  std::vector<std::size_t> stride(rank, 1), index(rank, 0);
  for (std::size_t j = 1; j < rank; ++j) stride[j] = stride[j - 1] * shape[j - 1];
  std::vector<T> c(data.size());
  std::size_t from = 0;
  for (T& out : c) {
    out = data[from];
    // The next index in C order (the last axis fastest), and its offset in the file's order.
    for (std::size_t j = rank; j-- > 0;) {
      from += stride[j];
      if (++index[j] < shape[j]) break;
      from -= stride[j] * shape[j];
      index[j] = 0;
    }
  }
  data.swap(c);
}

// The reader proper over an open stream of `fileSize` bytes; `where` starts every message.
NpyArray readNpyStream(std::istream& in, std::uintmax_t fileSize, const std::string& where,
                       std::size_t maxElements) {
  Header h;
  Dtype dt{};
  const std::size_t count = readPrelude(in, fileSize, where, maxElements, parseDescr, h, dt);
  NpyArray out;
  out.shape = h.shape;
  out.dtype = h.descr;
  out.data.resize(count);
  readChunks(in, count, dt, where, [&](const unsigned char* src, std::size_t n, std::size_t done) {
    float* dst = out.data.data() + done;
    switch (dt.kind) {
      case Kind::F32:
        if (!dt.swap) {
          std::memcpy(dst, src, n * 4);
        } else {
          for (std::size_t i = 0; i < n; ++i) dst[i] = loadSwapped<float>(src + 4 * i, true);
        }
        break;
      case Kind::F16:
        for (std::size_t i = 0; i < n; ++i)
          dst[i] = halfToFloat(loadSwapped<unsigned short>(src + 2 * i, dt.swap));
        break;
      case Kind::F64:
        for (std::size_t i = 0; i < n; ++i)
          dst[i] = static_cast<float>(loadSwapped<double>(src + 8 * i, dt.swap));
        break;
      default:
        throw InputError(where + "has a non-float dtype");
    }
  });
  if (h.fortran) fortranToC(out.data, out.shape);
  return out;
}

// One element of any accepted dtype as a double (exact for integers below 2^53).
double numberAt(const unsigned char* e, const Dtype& dt) {
  switch (dt.kind) {
    case Kind::F16:
      return halfToFloat(loadSwapped<unsigned short>(e, dt.swap));
    case Kind::F32:
      return loadSwapped<float>(e, dt.swap);
    case Kind::F64:
      return loadSwapped<double>(e, dt.swap);
    case Kind::I8:
      return static_cast<std::int8_t>(*e);
    case Kind::U8:
      return *e;
    case Kind::Bool:
      return *e ? 1.0 : 0.0;
    case Kind::I16:
      return loadSwapped<std::int16_t>(e, dt.swap);
    case Kind::U16:
      return loadSwapped<std::uint16_t>(e, dt.swap);
    case Kind::I32:
      return loadSwapped<std::int32_t>(e, dt.swap);
    case Kind::U32:
      return loadSwapped<std::uint32_t>(e, dt.swap);
    case Kind::I64:
      return static_cast<double>(loadSwapped<std::int64_t>(e, dt.swap));
    case Kind::U64:
      return static_cast<double>(loadSwapped<std::uint64_t>(e, dt.swap));
  }
  return 0.0;  // unreachable: every Kind is listed
}

NpyNumbers readNumbersStream(std::istream& in, std::uintmax_t fileSize, const std::string& where,
                             std::size_t maxElements) {
  Header h;
  Dtype dt{};
  const std::size_t count = readPrelude(in, fileSize, where, maxElements, parseNumberDescr, h, dt);
  NpyNumbers out;
  out.shape = h.shape;
  out.dtype = h.descr;
  out.data.resize(count);
  readChunks(in, count, dt, where, [&](const unsigned char* src, std::size_t n, std::size_t done) {
    for (std::size_t i = 0; i < n; ++i) out.data[done + i] = numberAt(src + dt.size * i, dt);
  });
  if (h.fortran) fortranToC(out.data, out.shape);
  return out;
}

}  // namespace

NpyNumbers readNpyNumbers(const std::string& path, const std::string& what,
                          std::size_t maxElements) {
  const std::string where = what + " \"" + path + "\" ";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(what + " \"" + path + "\" does not exist or is not a regular file");
  const std::uintmax_t fileSize = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(where + "cannot be read");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + "cannot be opened");
  return readNumbersStream(in, fileSize, where, maxElements);
}

NpyNumbers readNpyNumbersBytes(std::string_view bytes, const std::string& what,
                               std::size_t maxElements) {
  std::istringstream in{std::string(bytes)};
  return readNumbersStream(in, bytes.size(), what + " ", maxElements);
}

NpyArray readNpy(const std::string& path, const std::string& what, std::size_t maxElements) {
  const std::string where = what + " \"" + path + "\" ";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(what + " \"" + path + "\" does not exist or is not a regular file");
  const std::uintmax_t fileSize = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(where + "cannot be read");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + "cannot be opened");
  return readNpyStream(in, fileSize, where, maxElements);
}

NpyArray readNpyBytes(std::string_view bytes, const std::string& what, std::size_t maxElements) {
  std::istringstream in{std::string(bytes)};
  return readNpyStream(in, bytes.size(), what + " ", maxElements);
}

std::string npyHeader(const std::vector<std::size_t>& shape, const std::string& descr,
                      bool fortranOrder) {
  std::string s = "{'descr': '" + descr +
                  "', 'fortran_order': " + (fortranOrder ? "True" : "False") + ", 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "") +
         (i + 1 < shape.size() ? " " : "");
  s += "), }";
  // Pad so that magic + version + length + header is a multiple of 64, ending in '\n'.
  const std::size_t total = 10 + s.size() + 1;
  s.append((64 - total % 64) % 64, ' ');
  s += '\n';
  return s;
}

namespace {

std::string npyPreamble(const std::string& path, const std::vector<std::size_t>& shape,
                        const std::string& descr = "<f4") {
  const std::string header = npyHeader(shape, descr);
  if (header.size() > 65535) throw InputError("output \"" + path + "\": too many dimensions");
  std::string pre(kMagic, kMagicLen);
  pre += '\x01';
  pre += '\x00';
  pre += static_cast<char>(header.size() & 0xff);
  pre += static_cast<char>(header.size() >> 8);
  pre += header;
  return pre;
}

std::size_t shapeProduct(const std::vector<std::size_t>& shape) {
  std::size_t product = 1;
  for (std::size_t d : shape) product *= d;
  return product;
}

// float is little-endian IEEE on every platform the project builds for (x86-64, arm64).
static_assert(std::numeric_limits<float>::is_iec559);

}  // namespace

namespace {

// One whole array of `size`-byte little-endian elements of type `descr`, atomically.
void writeWholeNpy(const std::string& path, const void* data, std::size_t count, std::size_t size,
                   const std::vector<std::size_t>& shape, const std::string& descr) {
  if (shapeProduct(shape) != count)
    throw InputError("output \"" + path + "\": shape does not match the number of values");
  const std::string pre = npyPreamble(path, shape, descr);
  writeFileAtomically(path, {ByteSpan{pre.data(), pre.size()}, ByteSpan{data, count * size}},
                      "out");
}

}  // namespace

void writeNpy(const std::string& path, const float* data, std::size_t count,
              const std::vector<std::size_t>& shape) {
  writeWholeNpy(path, data, count, sizeof(float), shape, "<f4");
}

void writeNpy(const std::string& path, const double* data, std::size_t count,
              const std::vector<std::size_t>& shape) {
  static_assert(std::numeric_limits<double>::is_iec559);
  writeWholeNpy(path, data, count, sizeof(double), shape, "<f8");
}

void writeNpy(const std::string& path, const std::int64_t* data, std::size_t count,
              const std::vector<std::size_t>& shape) {
  writeWholeNpy(path, data, count, sizeof(std::int64_t), shape, "<i8");
}

NpyWriter::NpyWriter(const std::string& path, const std::vector<std::size_t>& shape)
    : path_(path), expected_(shapeProduct(shape)) {
  const std::string pre = npyPreamble(path, shape);
  file_ = std::make_unique<OutputFile>(path, "out");
  file_->write(pre.data(), pre.size());
}

NpyWriter::~NpyWriter() = default;

void NpyWriter::write(const float* data, std::size_t count) {
  if (count > expected_ - written_)
    throw InputError("output \"" + path_ + "\": more values than the shape holds");
  file_->write(data, count * sizeof(float));
  written_ += count;
}

void NpyWriter::commit() {
  if (written_ != expected_)
    throw InputError("output \"" + path_ + "\": shape does not match the number of values");
  file_->commit();
}

}  // namespace ropescope
