// The .npy reader and writer: round trips, every accepted dtype and header version, and every
// kind of bad file rejected with one line that names the file and the problem.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "ropescope/errors.h"
#include "ropescope/npy.h"

namespace ropescope {
namespace {

std::string tempPath(const std::string& name) {
  static const auto dir = [] {
    auto p = std::filesystem::temp_directory_path() / ("ropescope-npy-" + std::to_string(getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return (dir / name).string();
}

// A .npy file from raw parts: version, header text (padded and '\n'-terminated unless raw) and
// data bytes.
std::string makeFile(const std::string& name, const std::string& header, const std::string& data,
                     int major = 1, bool pad = true) {
  std::string h = header;
  if (pad) {
    const std::size_t prefix = major == 1 ? 10 : 12;
    h.append((64 - (prefix + h.size() + 1) % 64) % 64, ' ');
    h += '\n';
  }
  std::string f = "\x93NUMPY";
  f += static_cast<char>(major);
  f += '\0';
  if (major == 1) {
    f += static_cast<char>(h.size() & 0xff);
    f += static_cast<char>(h.size() >> 8);
  } else {
    for (int i = 0; i < 4; ++i) f += static_cast<char>((h.size() >> (8 * i)) & 0xff);
  }
  f += h + data;
  const std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << f;
  return path;
}

template <typename T>
std::string bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

void expectError(const std::string& path, const std::string& mention) {
  try {
    readNpy(path, "q file");
    ADD_FAILURE() << "no error for " << path << ", expected: " << mention;
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(mention), std::string::npos) << m;
    EXPECT_NE(m.find(path), std::string::npos) << "names the file: " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

TEST(Npy, WriteThenReadRoundTrips) {
  std::vector<float> v(2 * 3 * 5);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i) * 0.25f - 3.0f;
  const std::string p = tempPath("round.npy");
  writeNpy(p, v.data(), v.size(), {2, 3, 5});
  const NpyArray a = readNpy(p);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3, 5}));
  EXPECT_EQ(a.dtype, "<f4");
  EXPECT_EQ(a.data, v);
  // numpy's own layout: header padded so that the data starts at a multiple of 64.
  EXPECT_EQ(std::filesystem::file_size(p), 128u + v.size() * 4);
  EXPECT_EQ(npyHeader({7}).substr(0, 51), "{'descr': '<f4', 'fortran_order': False, 'shape': (");
  EXPECT_NE(npyHeader({7}).find("(7,)"), std::string::npos);
  EXPECT_NE(npyHeader({2, 3}).find("(2, 3)"), std::string::npos);
  EXPECT_THROW(writeNpy(p, v.data(), v.size(), {2, 3}), InputError);
  EXPECT_THROW(writeNpy("/nonexistent-dir/x.npy", v.data(), v.size(), {30}), InputError);
}

TEST(Npy, ReadsHalfDoubleBigEndianAndLaterVersions) {
  const std::vector<std::uint16_t> half{0x3c00, 0xc000, 0x7bff, 0x0001, 0x0000, 0x3555};
  const NpyArray h = readNpy(makeFile(
      "half.npy", "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }", bytes(half)));
  ASSERT_EQ(h.data.size(), 6u);
  EXPECT_EQ(h.data[0], 1.0f);
  EXPECT_EQ(h.data[1], -2.0f);
  EXPECT_EQ(h.data[2], 65504.0f);
  EXPECT_EQ(h.data[3], std::ldexp(1.0f, -24));  // smallest subnormal half
  EXPECT_EQ(h.data[4], 0.0f);
  EXPECT_NEAR(h.data[5], 1.0f / 3.0f, 1e-3);
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_EQ(halfToFloat(0x8000), -0.0f);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));  // smallest normal

  const std::vector<double> dbl{1.5, -2.25, 1e-3};
  const NpyArray d = readNpy(
      makeFile("f8.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", bytes(dbl)));
  EXPECT_EQ(d.data, (std::vector<float>{1.5f, -2.25f, 1e-3f}));

  std::string be = bytes(std::vector<float>{1.0f, -3.5f});
  for (std::size_t i = 0; i < be.size(); i += 4)
    std::swap(be[i], be[i + 3]), std::swap(be[i + 1], be[i + 2]);
  const NpyArray b = readNpy(makeFile(
      "be.npy", "{'shape': (2,), 'fortran_order': False, 'descr': '>f4'}", be));  // any key order
  EXPECT_EQ(b.data, (std::vector<float>{1.0f, -3.5f}));

  const NpyArray v2 =
      readNpy(makeFile("v2.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }",
                       bytes(std::vector<float>{4, 5}), 2));
  EXPECT_EQ(v2.data, (std::vector<float>{4, 5}));
  const NpyArray empty = readNpy(
      makeFile("empty.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 128), }", ""));
  EXPECT_TRUE(empty.data.empty());
}

// What np.save writes for np.asfortranarray(a): the data with the first index fastest. numpy's
// loader hands it back in C order, and so does ropescope, for every rank and both readers.
TEST(Npy, FortranOrderIsReadInCOrderAsNumpyDoes) {
  for (const std::vector<std::size_t>& shape : std::vector<std::vector<std::size_t>>{
           {5}, {2, 3}, {3, 1, 4}, {2, 3, 4}, {2, 1, 3, 2}, {4, 0}}) {
    std::size_t count = 1;
    for (std::size_t d : shape) count *= d;
    // value(i0..ik) = its C-order position; the file holds them in Fortran order.
    std::vector<float> fortran(count);
    std::vector<std::size_t> index(shape.size(), 0);
    for (std::size_t c = 0; c < count; ++c) {
      std::size_t f = 0, stride = 1;
      for (std::size_t j = 0; j < shape.size(); ++j) {
        f += index[j] * stride;
        stride *= shape[j];
      }
      fortran[f] = static_cast<float>(c);
      for (std::size_t j = shape.size(); j-- > 0;)
        if (++index[j] < shape[j])
          break;
        else
          index[j] = 0;
    }
    const std::string header = npyHeader(shape, "<f4", true);
    const std::string path = makeFile("fortran.npy", header, bytes(fortran), 1, false);
    SCOPED_TRACE(header);
    const NpyArray a = readNpy(path);
    EXPECT_EQ(a.shape, shape);
    const NpyNumbers n = readNpyNumbers(path);
    ASSERT_EQ(a.data.size(), count);
    ASSERT_EQ(n.data.size(), count);
    for (std::size_t c = 0; c < count; ++c) {
      EXPECT_EQ(a.data[c], static_cast<float>(c)) << c;
      EXPECT_EQ(n.data[c], static_cast<double>(c)) << c;
    }
  }
}

TEST(Npy, RejectsBadFilesWithOneLine) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  const std::string data = bytes(std::vector<float>{1, 2, 3, 4});
  expectError(tempPath("missing.npy"), "does not exist");
  {
    const std::string p = tempPath("magic.npy");
    std::ofstream(p, std::ios::binary) << "PK\x03\x04 this is a zip file, not npy";
    expectError(p, "wrong magic");
  }
  {
    const std::string p = tempPath("short.npy");
    std::ofstream(p, std::ios::binary) << "\x93NUM";
    expectError(p, "wrong magic");
  }
  expectError(makeFile("version.npy", ok, data, 9), "format version 9");
  // A header length field of 70000 (version 2): refused before anything is read or allocated.
  expectError(makeFile("huge-header.npy", std::string(70000, ' ') + ok, data, 2, false),
              "header (limit 65536)");
  expectError(makeFile("no-data.npy", ok + std::string(100, ' ') + "\n", "", 1, false),
              "is truncated");
  {  // header length pointing past the end of the file
    const std::string f("\x93NUMPY\x01\x00\xff\x0f{'descr'", 18);
    const std::string p = tempPath("header-past-end.npy");
    std::ofstream(p, std::ios::binary) << f;
    expectError(p, "truncated inside the header");
  }
  expectError(makeFile("no-newline.npy", ok, data, 1, false), "no terminating newline");
  expectError(makeFile("garbage.npy", "\x01\x02garbage{", data), "malformed header");
  expectError(makeFile("missing-key.npy", "{'descr': '<f4', 'shape': (2, 2), }", data),
              "needs 'descr', 'fortran_order' and 'shape'");
  expectError(makeFile("extra-key.npy",
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}", data),
              "unexpected header key 'x'");
  expectError(makeFile("bad-shape.npy",
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -2), }", data),
              "malformed 'shape'");
  expectError(
      makeFile("bad-bool.npy", "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,), }", data),
      "'fortran_order' must be True or False");
  expectError(
      makeFile("int.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", data),
      "unsupported dtype '<i4'");
  expectError(
      makeFile("bf16.npy", "{'descr': '<V2', 'fortran_order': False, 'shape': (2, 4), }", data),
      "convert it to float32 first");
  expectError(makeFile("truncated.npy", ok, data.substr(0, 10)), "is truncated");
  expectError(makeFile("trailing.npy", ok, data + "xx"), "bytes after the data");
  // Shapes whose product is huge or overflows: refused by the element cap, not by a failed
  // allocation.
  expectError(makeFile("too-many.npy",
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (1073741825,), }", data),
              "elements");
  expectError(
      makeFile("overflow.npy",
               "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }",
               data),
      "elements");
  expectError(
      makeFile("digits.npy",
               "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
               data),
      "too large");
  try {  // a caller's own, smaller cap
    readNpy(makeFile("cap.npy", ok, data), "k file", 3);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("k file"), std::string::npos);
  }
}

}  // namespace
}  // namespace ropescope
